import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../process/infra/embeddedPostgres.js';
import { freePort } from '../../process/infra/freePort.js';

let server: Server | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// The package rejects with `undefined` when PostgreSQL exits during its start, which `npm run dev` printed as is.
it('says which port and data directory a PostgreSQL that cannot start was given', async () => {
  const port = await freePort();
  server = createServer();
  await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
  dataDir = await mkdtemp(join(tmpdir(), 'cb-busy-pg-'));
  const start = startEmbeddedPostgres({ dataDir, port, persistent: false });
  await expect(start).rejects.toThrow(`PostgreSQL did not start on 127.0.0.1:${port} with data in ${dataDir}. Is the port taken, or does another PostgreSQL use that data directory?`);
}, 120_000);
