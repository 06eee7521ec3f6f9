import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, type Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { createWorker } from '../../process/worker.js';
import { workerDeploymentOf, workflowCodeBuildId, type WorkerDeployment } from '../../process/workerVersioning.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { testGateway } from '../harness/temporal.js';

// Worker Deployment Versioning against the run's Temporal dev server: two versioned workers of one deployment with
// different build ids, the current version switched from the first to the second, and where each run's workflow
// tasks went read from the server (describe, history, the deployment's routing), never from timing.

const database = useTestDatabase();
const gateway = testGateway();
const namespace = inject('temporalNamespace');
const deploymentName = `community-bot-test-${randomUUID()}`;
const workers: Array<{ worker: Worker; running: Promise<void>; connection: NativeConnection }> = [];
let bundle: WorkflowBundle;

beforeAll(async () => {
  bundle = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./fixtures/versionedWorkflows.ts', import.meta.url)), logger: quiet });
});

afterAll(async () => {
  for (const { worker, running, connection } of workers) {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await connection.close();
  }
  await gateway.client.connection.close();
});

async function startVersionedWorker(buildId: string): Promise<void> {
  const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  const worker = await createWorker({
    connection,
    namespace,
    taskQueue: gateway.taskQueue,
    bundle,
    deployment: { name: deploymentName, buildId },
    deps: { db: database.db, platform: createLocalPlatform(database.db), clock: systemClock, logger: createLogger('silent', buildId), temporal: gateway, webhooks: { allowInsecureLocal: true } },
  });
  workers.push({ worker, running: worker.run(), connection });
  // The version exists once the server has seen the worker poll with it.
  await eventually(() => versionsOfDeployment(), (ids) => ids.includes(buildId));
}

async function versionsOfDeployment(): Promise<string[]> {
  const described = await gateway.client.workflowService.describeWorkerDeployment({ namespace, deploymentName }).catch(() => undefined);
  return (described?.workerDeploymentInfo?.versionSummaries ?? []).map((v) => v.deploymentVersion?.buildId ?? '');
}

async function setCurrent(buildId: string): Promise<void> {
  await gateway.client.workflowService.setWorkerDeploymentCurrentVersion({ namespace, deploymentName, buildId, identity: 'versioning-test' });
}

async function currentBuildId(): Promise<string | null | undefined> {
  const described = await gateway.client.workflowService.describeWorkerDeployment({ namespace, deploymentName });
  return described.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId;
}

/** The build id and behaviour the server recorded for the run (set by its last completed workflow task). */
async function versioningOf(handle: WorkflowHandle) {
  const { raw } = await handle.describe();
  const info = raw.workflowExecutionInfo?.versioningInfo;
  return { buildId: info?.deploymentVersion?.buildId, behavior: info?.behavior };
}

/** The build id of every completed workflow task of the run, in order: which worker version did its work. */
async function taskBuildIds(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((e) => (e.workflowTaskCompletedEventAttributes ? [e.workflowTaskCompletedEventAttributes.deploymentVersion?.buildId ?? 'none'] : []));
}

const start = (name: string) => gateway.client.workflow.start('waitForRelease', { taskQueue: gateway.taskQueue, workflowId: `${deploymentName}-${name}` });
const AUTO_UPGRADE = 2; // temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE

it('runs go to the current version only: after the switch, new runs and the open ones go to the new build, none back to the old', async () => {
  await startVersionedWorker('build-a');
  await setCurrent('build-a');
  expect(await currentBuildId()).toBe('build-a');
  const open = await start('open');
  expect(await eventually(() => versioningOf(open), (v) => v.buildId !== undefined)).toEqual({ buildId: 'build-a', behavior: AUTO_UPGRADE });

  // The new build polls, but until an operator makes it current it is given nothing.
  await startVersionedWorker('build-b');
  const beforeSwitch = await start('before-switch');
  expect(await eventually(() => versioningOf(beforeSwitch), (v) => v.buildId !== undefined)).toEqual({ buildId: 'build-a', behavior: AUTO_UPGRADE });

  await setCurrent('build-b');
  expect(await currentBuildId()).toBe('build-b');
  const afterSwitch = await start('after-switch');
  expect(await eventually(() => versioningOf(afterSwitch), (v) => v.buildId !== undefined)).toEqual({ buildId: 'build-b', behavior: AUTO_UPGRADE });

  // The run the old build started continues on the new one (auto-upgrade), and its old worker gets none of its tasks.
  await open.signal('release');
  expect(await open.result()).toBe('released');
  expect(await taskBuildIds(open)).toEqual(['build-a', 'build-b']);
  await afterSwitch.signal('release');
  await beforeSwitch.signal('release');
  expect(await afterSwitch.result()).toBe('released');
  expect(await beforeSwitch.result()).toBe('released');
  expect(await taskBuildIds(beforeSwitch)).toEqual(['build-a', 'build-b']);
});

it('declares no version without TEMPORAL_DEPLOYMENT_NAME, and derives the build id from the workflow code when TEMPORAL_BUILD_ID is unset', async () => {
  const settings = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).temporal;
  expect(await workerDeploymentOf(settings({}), bundle)).toBeUndefined();
  expect(await workerDeploymentOf(settings({ TEMPORAL_DEPLOYMENT_NAME: 'community-bot', TEMPORAL_BUILD_ID: '2026-12-01-abc123' }), bundle)).toEqual<WorkerDeployment>({
    name: 'community-bot',
    buildId: '2026-12-01-abc123',
  });
  const derived = await workerDeploymentOf(settings({ TEMPORAL_DEPLOYMENT_NAME: 'community-bot', TEMPORAL_BUILD_ID: '' }), bundle);
  expect(derived?.buildId).toMatch(/^wf-[0-9a-f]{24}$/);
  // Same code, same id (every replica of an image); other code, another id.
  expect(await workflowCodeBuildId({ code: bundle.code })).toBe(derived?.buildId);
  expect(await workflowCodeBuildId({ code: `${bundle.code}\n// changed` })).not.toBe(derived?.buildId);
});

it('refuses a deployment name or build id Temporal cannot join into a version, naming the setting', () => {
  expect(() => loadConfig({ NODE_ENV: 'test', TEMPORAL_DEPLOYMENT_NAME: 'community.bot' })).toThrow(
    'TEMPORAL_DEPLOYMENT_NAME: must not contain a dot or a space (Temporal joins the deployment name and the build id with a dot)',
  );
  expect(() => loadConfig({ NODE_ENV: 'test', TEMPORAL_BUILD_ID: 'x'.repeat(256) })).toThrow(/TEMPORAL_BUILD_ID: /);
});

const noop = () => {};
const quiet = { trace: noop, debug: noop, info: noop, log: noop, warn: noop, error: console.error };
