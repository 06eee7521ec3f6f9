import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createWorker, workflowCode } from '../../process/worker.js';
import { loadConfig } from '../../src/core/config.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { useTestDatabase } from '../harness/database.js';
import { testGateway } from '../harness/temporal.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const database = useTestDatabase();
const gateway = testGateway();
let dir: string | undefined;
afterAll(async () => {
  await gateway.client.connection.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a workflow bundle written beforehand (npm run bundle:workflows, WORKFLOW_BUNDLE_PATH)', () => {
  it('is written by the script and runs workflows in a worker that does not bundle', async () => {
    dir = await mkdtemp(join(tmpdir(), 'bundle-'));
    const out = join(dir, 'workflows.js');
    const child = spawn(process.execPath, ['--import', 'tsx', 'process/entrypoints/bundleWorkflows.ts', '--out', out], { cwd: root, stdio: 'ignore' });
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('refreshLevelRanks');
    expect(loadConfig({ WORKFLOW_BUNDLE_PATH: out }).temporal.workflowBundlePath).toBe(out);

    const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
    const db = database.db;
    const worker = await createWorker({
      connection,
      namespace: inject('temporalNamespace'),
      taskQueue: gateway.taskQueue,
      bundle: await workflowCode(out),
      deps: { db, platform: createLocalPlatform(db), clock: systemClock, logger: createLogger('silent', 'bundle-test'), temporal: gateway, webhooks: { allowInsecureLocal: false } },
    });
    const outcome = await worker.runUntil(
      gateway.client.workflow.execute('refreshLevelRanks', { taskQueue: gateway.taskQueue, workflowId: `bundle-test-${randomUUID()}` }),
    );
    await connection.close();
    expect(outcome).toEqual({ refreshed: 0, dropped: 0 });
  });
});
