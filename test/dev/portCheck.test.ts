import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { DevPortsTakenError, devPorts, ensureDevPortsFree, portsTakenMessage, takenPorts } from '../../process/dev/portCheck.js';
import { freePort } from '../../process/infra/freePort.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const servers: Server[] = [];

/** Something listening on a free loopback port, as a running dev stack would. */
async function busyPort(): Promise<number> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  servers.push(server);
  return port;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('the ports npm run dev needs', () => {
  it('are the embedded PostgreSQL, the Temporal dev server and its UI (temporal-dev.yml), the api and its probes, and the worker probes', async () => {
    expect(await devPorts(loadConfig({}), root)).toEqual([
      { what: 'embedded PostgreSQL', host: '127.0.0.1', port: 54329, setting: 'DEV_POSTGRES_PORT' },
      { what: 'Temporal dev server', host: '127.0.0.1', port: 7233, setting: 'port in temporal-dev.yml' },
      { what: 'Temporal UI', host: '127.0.0.1', port: 8233, setting: 'uiPort in temporal-dev.yml' },
      { what: 'api', host: '127.0.0.1', port: 3000, setting: 'PORT' },
      { what: 'api probes', host: '127.0.0.1', port: 3003, setting: 'API_OPS_PORT' },
      { what: 'worker probes', host: '127.0.0.1', port: 3001, setting: 'WORKER_PORT' },
    ]);
  });

  it('leave out what is configured elsewhere, and a PORT, API_OPS_PORT or WORKER_PORT of 0', async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://db.example/x', TEMPORAL_ADDRESS: 'temporal.example:7233', PORT: '4000', API_OPS_PORT: '0', WORKER_PORT: '0' });
    expect(await devPorts(config, root)).toEqual([{ what: 'api', host: '127.0.0.1', port: 4000, setting: 'PORT' }]);
    expect(await devPorts(loadConfig({ DATABASE_URL: 'postgres://db.example/x', TEMPORAL_ADDRESS: 'x:1', PORT: '0', API_OPS_PORT: '0', WORKER_PORT: '0' }), root)).toEqual([]);
  });

  it("include the bot's BOT_PORT and the egress's DISCORD_EGRESS_PORT when dev starts them (the Discord platform, real or fake), unless 0", async () => {
    const elsewhere = { DATABASE_URL: 'postgres://db.example/x', TEMPORAL_ADDRESS: 'x:1', PORT: '0', API_OPS_PORT: '0', WORKER_PORT: '0' };
    expect(await devPorts(loadConfig(elsewhere), root, true)).toEqual([
      { what: 'bot probes', host: '127.0.0.1', port: 3002, setting: 'BOT_PORT' },
      { what: 'Discord egress', host: '127.0.0.1', port: 3004, setting: 'DISCORD_EGRESS_PORT' },
    ]);
    expect(await devPorts(loadConfig({ ...elsewhere, BOT_PORT: '0', DISCORD_EGRESS_PORT: '0' }), root, true)).toEqual([]);
  });
});

describe('the port check', () => {
  it('finds a port something listens on, and not a free one', async () => {
    const [busy, free] = [await busyPort(), await freePort()];
    const ports = [
      { what: 'embedded PostgreSQL', host: '127.0.0.1', port: busy, setting: 'DEV_POSTGRES_PORT' },
      { what: 'api', host: '127.0.0.1', port: free, setting: 'PORT' },
    ];
    expect(await takenPorts(ports)).toEqual([{ ...ports[0], code: 'EADDRINUSE' }]);
    await expect(ensureDevPortsFree(ports)).rejects.toBeInstanceOf(DevPortsTakenError);
    await expect(ensureDevPortsFree([ports[1]!])).resolves.toBeUndefined();
  });

  it('says which ports are taken, that a dev stack seems to run and how to stop it', () => {
    const message = portsTakenMessage([
      { what: 'embedded PostgreSQL', host: '127.0.0.1', port: 54329, setting: 'DEV_POSTGRES_PORT', code: 'EADDRINUSE' },
      { what: 'api', host: '127.0.0.1', port: 3000, setting: 'PORT', code: 'EADDRINUSE' },
    ]);
    expect(message.split('\n')).toEqual([
      'Cannot start: ports npm run dev needs are taken. Nothing was started.',
      '  127.0.0.1:54329 (embedded PostgreSQL, DEV_POSTGRES_PORT) is already in use',
      '  127.0.0.1:3000 (api, PORT) is already in use',
      'Another `npm run dev` seems to be running (in another terminal, or left behind by one that was killed).',
      'Stop it with Ctrl-C in its terminal, or with kill -INT <pid> of the node process listening on port 3000: it stops its PostgreSQL and Temporal too.',
      'What holds them: lsof -nP -iTCP:54329 -iTCP:3000 -sTCP:LISTEN',
      'To run a second stack beside it instead: set DEV_POSTGRES_PORT and PORT, and TEMPORAL_ADDRESS (or change the ports in temporal-dev.yml).',
    ]);
  });

  it('blames another program when only the api port is taken', () => {
    const message = portsTakenMessage([{ what: 'api', host: '127.0.0.1', port: 3000, setting: 'PORT', code: 'EADDRINUSE' }]);
    expect(message).toContain('Cannot start: a port npm run dev needs is taken.');
    expect(message).toContain('Another program is listening there');
    expect(message).not.toContain('Another `npm run dev`');
  });
});

describe('npm run dev while its ports are taken', () => {
  it('exits with code 1 naming the ports, before starting anything', async () => {
    const [postgresPort, apiPort, temporalPort] = [await busyPort(), await busyPort(), await freePort()];
    const { DATABASE_URL, TEMPORAL_ADDRESS, ...inherited } = process.env;
    const env = {
      ...inherited,
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      DEV_POSTGRES_PORT: String(postgresPort),
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      // An external Temporal (nothing listens there): the check must not need the real dev ports to be free.
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    };
    const failure = await promisify(execFile)('npx', ['tsx', 'process/entrypoints/dev.ts'], { env, cwd: root, timeout: 60_000 }).then(
      () => undefined,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failure).toBeDefined();
    expect(failure!.code).toBe(1);
    expect(failure!.stderr).toContain(`127.0.0.1:${postgresPort} (embedded PostgreSQL, DEV_POSTGRES_PORT) is already in use`);
    expect(failure!.stderr).toContain(`127.0.0.1:${apiPort} (api, PORT) is already in use`);
    expect(failure!.stderr).toContain('Another `npm run dev` seems to be running');
    expect(failure!.stderr).not.toContain('undefined');
    expect(failure!.stdout).not.toContain('Starting embedded PostgreSQL');
  });
});
