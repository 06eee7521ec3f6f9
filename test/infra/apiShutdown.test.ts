import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../process/infra/freePort.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { startServiceProcess, untilReady, type ServiceProcess } from '../harness/serviceProcess.js';

// The stop as the orchestrator sees it, on processes started as the image starts them.

const database = useTestDatabase();
let api: ServiceProcess | undefined;
afterAll(() => api?.stop());

describe('the api process on SIGTERM', () => {
  it('answers /readyz 503 draining while it still serves through the propagation delay, then exits 0', async () => {
    const [port, opsPort] = [await freePort(), await freePort()];
    const origin = `http://127.0.0.1:${port}`;
    const opsOrigin = `http://127.0.0.1:${opsPort}`;
    api = startServiceProcess('api', {
      DATABASE_URL: database.url,
      // Nothing listens there: the api is ready all the same, with Temporal reported down.
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      HOST: '127.0.0.1',
      PORT: String(port),
      API_OPS_PORT: String(opsPort),
      SHUTDOWN_PROPAGATION_MS: '10000',
      SHUTDOWN_DRAIN_MS: '1000',
      SHUTDOWN_DEADLINE_MS: '20000',
    });
    await untilReady(api, `${opsOrigin}/readyz`);
    api.child.kill('SIGTERM');
    await eventually(async () => api!.lines.some((line) => line.includes('draining: not ready')), (seen) => seen, 30_000);
    const ready = await fetch(`${opsOrigin}/readyz`);
    expect([ready.status, ((await ready.json()) as { status: string }).status]).toEqual([503, 'draining']);
    const served = await fetch(`${origin}/api/v1/openapi.json`);
    expect([served.status, served.headers.get('connection')]).toEqual([200, 'close']);
    expect(await api.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${origin}/api/v1/openapi.json`)).rejects.toThrow();
  }, 120_000);
});

describe('a stop that outlasts SHUTDOWN_DEADLINE_MS', () => {
  it('ends the process with exit code 1 and a line naming the deadline', async () => {
    const script = fileURLToPath(new URL('./fixtures/stuckStop.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, '1000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = once(child, 'exit');
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    expect(chunk.toString()).toContain('started');
    child.kill('SIGTERM');
    expect(await exited).toEqual([1, null]);
    expect(stderr).toContain('The stop took longer than SHUTDOWN_DEADLINE_MS (1000 ms)');
  }, 60_000);
});
