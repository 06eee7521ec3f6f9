import { NativeConnection } from '@temporalio/worker';
import { createDatabase } from '../db/pool.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import { createLocalPlatform } from '../src/platform/localPlatform.js';
import { Client, Connection } from '@temporalio/client';
import { createWorker, workflowCode } from '../process/worker.js';
import { billableActionsOfChain } from '../src/core/temporal/histories.js';
import { wakeEndDispatcherAtStart } from '../src/giveaways/endDispatcher.js';
import { giveawayEndDispatcherId } from '../src/giveaways/ids.js';

/** What the scenario passes to the worker process it forks (JSON in argv[2]). */
export interface GiveawayWorkerArgs {
  databaseUrl: string;
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  maxCachedWorkflows: number;
  /** As TEMPORAL_MAX_CONCURRENT_ACTIVITIES in production. */
  maxConcurrentActivities: number;
  /** The workflow bundle written beforehand (as WORKFLOW_BUNDLE_PATH in production); unset, the process bundles. */
  workflowBundlePath?: string;
}

/** The process's memory in MB: resident, the main thread's V8 heap in use, and its off-heap buffers (`external`). */
export interface WorkerMemory {
  rssMb: number;
  heapMb: number;
  externalMb: number;
}

/** Messages to the parent: `ready` once polling, then its memory every second. */
export type GiveawayWorkerMessage = { type: 'ready' | 'rss' } & WorkerMemory;

// A worker in a process of its own, so its resident memory is the worker's alone (the bench process also holds the
// api thread, the load generator and their pools). Stopped by the parent's 'stop' message.
const args = JSON.parse(process.argv[2]!) as GiveawayWorkerArgs;
const mb = (bytes: number) => Math.round(bytes / 1_048_576);
const memory = (): WorkerMemory => {
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rssMb: mb(rss), heapMb: mb(heapUsed), externalMb: mb(external) };
};
const database = createDatabase(args.databaseUrl, 10);
const connection = await NativeConnection.connect({ address: args.temporalAddress });
const client = new Client({ connection: Connection.lazy({ address: args.temporalAddress }), namespace: args.namespace });
const worker = await createWorker({
  connection,
  namespace: args.namespace,
  taskQueue: args.taskQueue,
  bundle: await workflowCode(args.workflowBundlePath),
  deps: {
    db: database.db,
    platform: createLocalPlatform(database.db),
    clock: systemClock,
    logger: createLogger('warn', 'bench-giveaways'),
    temporal: { client, taskQueue: args.taskQueue },
    webhooks: { allowInsecureLocal: false },
  },
  maxCachedWorkflows: args.maxCachedWorkflows,
  maxConcurrentActivities: args.maxConcurrentActivities,
});
const running = worker.run();
// The end dispatcher, woken as the worker process's start wakes it, on this run's own task queue (an id of its own).
await wakeEndDispatcherAtStart({ client, taskQueue: args.taskQueue });
const send = (message: GiveawayWorkerMessage) => process.send!(message);
send({ type: 'ready', ...memory() });
const sampler = setInterval(() => send({ type: 'rss', ...memory() }), 1000);
process.on('message', async (message) => {
  if (message !== 'stop') return;
  clearInterval(sampler);
  // What the end dispatcher cost in Temporal Cloud actions over the run (every run of it), then it is ended.
  const actions = await billableActionsOfChain(client, giveawayEndDispatcherId(args.taskQueue));
  console.log(`end dispatcher: ${JSON.stringify(actions)}`);
  await client.workflow.getHandle(giveawayEndDispatcherId(args.taskQueue)).terminate('bench run over');
  worker.shutdown();
  await running;
  await connection.close();
  await database.close();
  process.exit(0);
});
