import { z } from 'zod';
import { booleanFlag } from './envFlag.js';

/** An identifier Temporal accepts in a deployment version (`<deployment>.<build id>`): no dot, at most 255. An empty value is unset. */
const optionalName = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string()
    .max(255)
    .regex(/^[^.\s]+$/, 'must not contain a dot or a space (Temporal joins the deployment name and the build id with a dot)')
    .optional(),
);

/** The environment variables of the Temporal connection, the worker and the Temporal binaries. */
export const temporalEnv = {
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('community-bot'),
  /**
   * The api also runs a worker on TEMPORAL_TASK_QUEUE, and its client shares that worker's connection, so the runs
   * it starts (an XP change: one workflow task) start eagerly, one round trip less (docs/performance.md, "XP changes").
   */
  API_EAGER_WORKER: booleanFlag.default(false),
  TEMPORAL_TLS: booleanFlag.default(false),
  TEMPORAL_TLS_CERT_PATH: z.string().optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().optional(),
  /** PEM of the CA that signed the frontend's certificate, for a cluster with a private CA; unset: the system's roots. */
  TEMPORAL_TLS_CA_PATH: z.string().optional(),
  TEMPORAL_API_KEY: z.string().optional(),
  /** Kept after boot (secretFiles.ts read it into TEMPORAL_API_KEY): re-read while running, so the key can rotate. */
  TEMPORAL_API_KEY_FILE: z.string().optional(),
  /**
   * How often the API key file and the TLS files are read again (a changed one applied without a restart); 0: read
   * once at start. Polled, not watched: a Kubernetes secret volume swaps a symlink, which file watches miss.
   */
  TEMPORAL_CREDENTIALS_RELOAD_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * Worker Deployment Versioning: the deployment the workers belong to (turns versioning on) and this build's id
   * within it. Unset build id: derived from the workflow code the worker runs (src/core/temporal/buildId.ts).
   */
  TEMPORAL_DEPLOYMENT_NAME: optionalName,
  TEMPORAL_BUILD_ID: optionalName,
  /** Open runs a worker keeps in memory; unset: the SDK's default, about 600 per GB of heap. */
  TEMPORAL_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).optional(),
  /**
   * Activities a worker runs at once. The SDK's default, 100, lets a burst of starts and posts grow the heap (and,
   * V8 keeping what it grew, the RSS) past what a pool of 20 connections can serve anyway: docs/performance.md.
   */
  TEMPORAL_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).default(20),
  /** A workflow bundle written by `npm run bundle:workflows`; unset, the worker bundles the workflows as it starts. */
  WORKFLOW_BUNDLE_PATH: z.string().optional(),
  /** Where the Temporal CLI and the time-skipping test server are, when not on PATH. */
  TEMPORAL_CLI_PATH: z.string().optional(),
  TEMPORAL_TEST_SERVER_PATH: z.string().optional(),
  /** Searched for those binaries after the two paths above. */
  PATH: z.string().default(''),
  /**
   * The real Temporal server and its temporal-sql-tool, for `npm run stack:prod` and `npm run bench -- --target prod`
   * only; unset: the ones built into ~/.cache/community-bot (built there when missing).
   */
  TEMPORAL_SERVER_PATH: z.string().optional(),
  TEMPORAL_SQL_TOOL_PATH: z.string().optional(),
  /** History shards of that server's cluster (fixed when its database is first set up). */
  TEMPORAL_HISTORY_SHARDS: z.coerce.number().int().min(1).max(16_384).default(4),
};

type TemporalEnv = z.infer<z.ZodObject<typeof temporalEnv>>;

export type TemporalSettings = Readonly<{
  address?: string;
  namespace: string;
  taskQueue: string;
  /** The api runs a worker of its own on the task queue and starts runs eagerly on it (API_EAGER_WORKER). */
  apiEagerWorker: boolean;
  tls: boolean;
  tlsCertPath?: string;
  tlsKeyPath?: string;
  tlsCaPath?: string;
  apiKey?: string;
  /** The file TEMPORAL_API_KEY came from, re-read every `credentialsReloadMs`. */
  apiKeyFile?: string;
  credentialsReloadMs: number;
  /** Set: the worker is versioned (Worker Deployment Versioning) in this deployment. */
  deploymentName?: string;
  buildId?: string;
  maxCachedWorkflows?: number;
  maxConcurrentActivities: number;
  workflowBundlePath?: string;
  cliPath?: string;
  testServerPath?: string;
  serverPath?: string;
  sqlToolPath?: string;
  historyShards: number;
  /** The process's PATH, where the Temporal binaries are looked for. */
  binarySearchPath: string;
}>;

export function checkTemporalEnv(e: TemporalEnv, ctx: z.RefinementCtx): void {
  // Half a client certificate would silently connect without one, and mutual TLS would fail far from the cause.
  if (Boolean(e.TEMPORAL_TLS_CERT_PATH) !== Boolean(e.TEMPORAL_TLS_KEY_PATH)) {
    const missing = e.TEMPORAL_TLS_CERT_PATH ? 'TEMPORAL_TLS_KEY_PATH' : 'TEMPORAL_TLS_CERT_PATH';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'must be set too: mutual TLS needs both the client certificate and its key' });
  }
}

export function temporalSettingsOf(e: TemporalEnv): TemporalSettings {
  return Object.freeze({
    address: e.TEMPORAL_ADDRESS,
    namespace: e.TEMPORAL_NAMESPACE,
    taskQueue: e.TEMPORAL_TASK_QUEUE,
    apiEagerWorker: e.API_EAGER_WORKER,
    tls: e.TEMPORAL_TLS,
    tlsCertPath: e.TEMPORAL_TLS_CERT_PATH,
    tlsKeyPath: e.TEMPORAL_TLS_KEY_PATH,
    tlsCaPath: e.TEMPORAL_TLS_CA_PATH,
    apiKey: e.TEMPORAL_API_KEY,
    apiKeyFile: e.TEMPORAL_API_KEY_FILE,
    credentialsReloadMs: e.TEMPORAL_CREDENTIALS_RELOAD_MS,
    deploymentName: e.TEMPORAL_DEPLOYMENT_NAME,
    buildId: e.TEMPORAL_BUILD_ID,
    maxCachedWorkflows: e.TEMPORAL_MAX_CACHED_WORKFLOWS,
    maxConcurrentActivities: e.TEMPORAL_MAX_CONCURRENT_ACTIVITIES,
    workflowBundlePath: e.WORKFLOW_BUNDLE_PATH,
    cliPath: e.TEMPORAL_CLI_PATH,
    testServerPath: e.TEMPORAL_TEST_SERVER_PATH,
    serverPath: e.TEMPORAL_SERVER_PATH,
    sqlToolPath: e.TEMPORAL_SQL_TOOL_PATH,
    historyShards: e.TEMPORAL_HISTORY_SHARDS,
    binarySearchPath: e.PATH,
  });
}
