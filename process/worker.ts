import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, Worker, type NativeConnection, type WorkflowBundle, type WorkflowBundleOption } from '@temporalio/worker';
import type { ActivityDeps } from '../activities/deps.js';
import { platformFailures } from '../activities/platformFailures.js';
import { activityLog } from './activityLog.js';
import { AREAS } from './areas.js';
import { outageRetries } from './outageRetries.js';
import { collectActivities } from './registry.js';
import type { workerTracing } from './tracing/temporalTracing.js';
import { workerDeploymentOptions, type WorkerDeployment } from './workerVersioning.js';

type WorkerTracing = ReturnType<typeof workerTracing>;

// Beside this file's own kind: workflows/index.ts from the source (tsx, tests), index.js from the build (the image).
const WORKFLOWS_PATH = fileURLToPath(new URL(`../workflows/index${extname(import.meta.url)}`, import.meta.url));

/** Bundles the workflow code; do it once per process and share the bundle between workers. */
export function bundleWorkflows(tracing?: WorkerTracing): Promise<WorkflowBundle> {
  return bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: silentBundlerLogger,
    ...(tracing ? { workflowInterceptorModules: tracing.workflowInterceptorModules } : {}),
  });
}

/**
 * The worker's workflow code: the bundle at `path` when one was written beforehand, else bundled now. Bundling loads
 * webpack into the process, which keeps about 100 MB more resident for good (docs/performance.md, Worker memory).
 * With tracing on the code is bundled now: the tracing interceptors are bundled in, and a bundle written beforehand
 * has none.
 */
export async function workflowCode(path: string | undefined, tracing?: WorkerTracing): Promise<WorkflowBundleOption> {
  return path && !tracing ? { codePath: path } : bundleWorkflows(tracing);
}

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** The bundled code, or the path of a bundle written beforehand (`npm run bundle:workflows`). */
  bundle: WorkflowBundleOption;
  deps: ActivityDeps;
  maxCachedWorkflows?: number;
  /** Activities run at once (TEMPORAL_MAX_CONCURRENT_ACTIVITIES); unset, the SDK's 100. */
  maxConcurrentActivities?: number;
  /** Running activities may finish for this long after shutdown begins, then are cancelled (SDK default: 0). */
  shutdownGraceMs?: number;
  /** Shutdown gives up waiting after this long. */
  shutdownForceMs?: number;
  /** Worker Deployment Versioning (process/workerVersioning.ts); unset: an unversioned worker. */
  deployment?: WorkerDeployment;
  /** When tracing is on: the activities' spans and the sink of the workflows' spans (the bundle must have been made with it). */
  tracing?: WorkerTracing;
}

export function createWorker(options: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: options.bundle,
    activities: collectActivities(AREAS, options.deps),
    // The first is the outermost: platformFailures makes a refusal non-retryable before outageRetries sees it, so a
    // refusal is never counted as a failure to give up on (even on a tenth attempt after an outage).
    // Tracing, when on, is outermost so that its span covers every attempt the inner interceptors make.
    interceptors: {
      activity: [...(options.tracing ? [options.tracing.activity] : []), activityLog(options.deps.logger), outageRetries, platformFailures],
    },
    ...(options.tracing ? { sinks: options.tracing.sinks } : {}),
    // A run missing from the cache costs a history fetch and a full replay on its next task: with 500, a
    // backlog of 2,000 fan-outs and their deliveries ran at 10 deliveries/s, with the SDK's heap-sized
    // default (about 600 runs per GB, 2,300 here) at 15/s. Still bounded, by the heap.
    maxCachedWorkflows: options.maxCachedWorkflows,
    ...(options.maxConcurrentActivities === undefined ? {} : { maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities }),
    // Only when set: the SDK takes an explicit undefined for a value and refuses it.
    ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceTime: options.shutdownGraceMs }),
    ...(options.shutdownForceMs === undefined ? {} : { shutdownForceTime: options.shutdownForceMs }),
    ...(options.deployment ? { workerDeploymentOptions: workerDeploymentOptions(options.deployment) } : {}),
  });
}

const noop = () => {};
// The bundler reports its progress at info level on every start; only its problems are worth printing.
const silentBundlerLogger = { trace: noop, debug: noop, info: noop, log: noop, warn: console.warn, error: console.error };
