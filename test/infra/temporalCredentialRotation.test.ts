import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, NativeConnection, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { watchTemporalCredentials, type CredentialSource } from '../../src/core/temporal/credentialSource.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { rotatingGateway } from '../../src/core/temporal/rotatingClient.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { createWorker } from '../../process/worker.js';
import { followCredentials } from '../../process/workerCredentials.js';
import { captureLogs, LEVEL } from '../harness/capturedLogs.js';
import { useTestDatabase } from '../harness/database.js';
import { fingerprintOf, startGrpcAuthProxy, type GrpcAuthProxy } from '../harness/grpcAuthProxy.js';
import { makeTestCertificates, type TestCertificates } from '../harness/testCertificates.js';

// The API key and the mutual-TLS certificate rotated under a running client and worker, in front of the real dev
// server: a proxy that requires the key and a certificate of its CA, as Temporal Cloud does, and records which key
// and which certificate each call came with. The re-read is triggered by the test (`check()`), not waited for.

const database = useTestDatabase();
const namespace = inject('temporalNamespace');
const taskQueue = `rotation-${process.pid}`;
let certs: TestCertificates;
let proxy: GrpcAuthProxy;
let source: CredentialSource;
let gateway: TemporalGateway;
const logs = captureLogs();
const files = { key: '', cert: '', certKey: '', ca: '' };

const writeKey = (key: string) => writeFile(files.key, `${key}\n`);
async function writeClientCert(n: number) {
  await writeFile(files.cert, certs.clients[n]!.cert);
  await writeFile(files.certKey, certs.clients[n]!.key);
}
const systemInfo = () => gateway.client.workflowService.getSystemInfo({});

beforeAll(async () => {
  certs = await makeTestCertificates(2);
  Object.assign(files, { key: join(certs.dir, 'api-key'), cert: join(certs.dir, 'tls.crt'), certKey: join(certs.dir, 'tls.key'), ca: join(certs.dir, 'tls-ca.pem') });
  await writeFile(files.ca, certs.ca);
  await writeKey('key-1');
  await writeClientCert(0);
  proxy = await startGrpcAuthProxy(inject('temporalAddress'), { server: certs.server, ca: certs.ca }, 'key-1');
  const config = loadConfig({
    NODE_ENV: 'test',
    TEMPORAL_ADDRESS: proxy.address,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_API_KEY_FILE: files.key,
    TEMPORAL_TLS_CA_PATH: files.ca,
    TEMPORAL_TLS_CERT_PATH: files.cert,
    TEMPORAL_TLS_KEY_PATH: files.certKey,
    TEMPORAL_CREDENTIALS_RELOAD_MS: '0',
  });
  source = watchTemporalCredentials(config.temporal, logs.logger);
  gateway = rotatingGateway(source, { namespace }, taskQueue);
});

afterAll(async () => {
  source?.close();
  await gateway?.client.connection.close();
  await proxy?.close();
  if (certs) await rm(certs.dir, { recursive: true, force: true });
});

describe('the client (api, bot, the worker’s starts)', () => {
  it('sends the key from the file and presents the certificate from the files', async () => {
    const seen = proxy.nextCall('GetSystemInfo');
    await systemInfo();
    expect(await seen).toEqual({ path: expect.any(String), apiKey: 'key-1', clientCert: fingerprintOf(certs.clients[0]!.cert), accepted: true });
  });

  it('sends a rotated key with the next call once the file is re-read, without a new connection', async () => {
    proxy.acceptKey('key-2');
    // The provider has revoked key-1: the frontend refuses it (the process has not re-read the file yet).
    await expect(systemInfo()).rejects.toMatchObject({ code: 16 });
    await writeKey('key-2');
    expect(await source.check()).toEqual({ apiKey: true, tls: false });
    const seen = proxy.nextCall('GetSystemInfo');
    await systemInfo();
    expect(await seen).toMatchObject({ apiKey: 'key-2', clientCert: fingerprintOf(certs.clients[0]!.cert), accepted: true });
    expect(logs.matching('Temporal credentials changed')).toHaveLength(1);
    expect(JSON.stringify(logs.lines)).not.toContain('key-2');
  });

  it('presents a rotated client certificate on a new connection once the files are re-read', async () => {
    const before = gateway.client;
    await writeClientCert(1);
    expect(await source.check()).toEqual({ apiKey: false, tls: true });
    expect(gateway.client).not.toBe(before);
    const seen = proxy.nextCall('GetSystemInfo');
    await systemInfo();
    expect(await seen).toMatchObject({ apiKey: 'key-2', clientCert: fingerprintOf(certs.clients[1]!.cert), accepted: true });
  });

  it('keeps the credentials in use when a file cannot be read or is empty, logging it once without its content', async () => {
    await rm(files.key);
    expect(await source.check()).toEqual({ apiKey: false, tls: false });
    expect(await source.check()).toEqual({ apiKey: false, tls: false });
    await writeFile(files.key, '\n');
    expect(await source.check()).toEqual({ apiKey: false, tls: false });
    const warned = logs.matching('Temporal credential files cannot be read');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: LEVEL.warn, reason: 'ENOENT' });
    const seen = proxy.nextCall('GetSystemInfo');
    await systemInfo();
    expect(await seen).toMatchObject({ apiKey: 'key-2', accepted: true });
    await writeKey('key-2');
    expect(await source.check()).toEqual({ apiKey: false, tls: false });
  });
});

describe('the worker', () => {
  let worker: Worker;
  let running: Promise<void>;

  beforeAll(async () => {
    const bundle = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('../workflows/fixtures/versionedWorkflows.ts', import.meta.url)), logger: quiet });
    worker = await createWorker({
      connection: await NativeConnection.connect(source.options()),
      namespace,
      taskQueue,
      bundle,
      maxCachedWorkflows: 0,
      deps: { db: database.db, platform: createLocalPlatform(database.db), clock: systemClock, logger: logs.logger, temporal: gateway, webhooks: { allowInsecureLocal: true } },
    });
    followCredentials(worker, source);
    running = worker.run();
  });

  afterAll(async () => {
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await running;
    await worker?.connection?.close();
  });

  it('answers its tasks with the rotated key, then over a connection with the rotated certificate', async () => {
    const run = await gateway.client.workflow.start('waitForRelease', { taskQueue, workflowId: `${taskQueue}-run` });
    const first = await proxy.nextCall('RespondWorkflowTaskCompleted');
    expect(first).toMatchObject({ apiKey: 'key-2', clientCert: fingerprintOf(certs.clients[1]!.cert), accepted: true });

    proxy.acceptKey('key-3');
    await writeKey('key-3');
    expect(await source.check()).toEqual({ apiKey: true, tls: false });
    const afterKey = proxy.nextCall('RespondWorkflowTaskCompleted');
    await run.signal('release');
    expect(await afterKey).toMatchObject({ apiKey: 'key-3', accepted: true });
    expect(await run.result()).toBe('released');

    await writeClientCert(0);
    expect(await source.check()).toEqual({ apiKey: false, tls: true });
    const second = await gateway.client.workflow.start('waitForRelease', { taskQueue, workflowId: `${taskQueue}-second` });
    const afterCert = await proxy.nextCall('RespondWorkflowTaskCompleted');
    expect(afterCert).toMatchObject({ apiKey: 'key-3', clientCert: fingerprintOf(certs.clients[0]!.cert), accepted: true });
    await second.signal('release');
    expect(await second.result()).toBe('released');
    expect(proxy.calls.filter((c) => !c.accepted && c.path.includes('RespondWorkflowTask'))).toEqual([]);
  });
});

const noop = () => {};
const quiet = { trace: noop, debug: noop, info: noop, log: noop, warn: noop, error: console.error };
