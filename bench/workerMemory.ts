import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

// What a worker process holds, stage by stage (docs/performance.md, "Worker memory"): resident memory and the main
// thread's V8 heap after a forced GC at each stage of a worker's start, then, with --runs N, the cost of N giveaway
// runs held in the workflow cache (their activation fails against an unreachable database and is retried by the
// server, so each run stays open in the cache). Run with the node flags to measure, for example:
//   node --expose-gc --max-semi-space-size=2 --import tsx bench/workerMemory.ts --temporal 127.0.0.1:7233 \
//     --bundle dist/workflows.js --runs 1000 --cache 1000 [--options '{"reuseV8Context":false}']
const { values } = parseArgs({
  options: { temporal: { type: 'string' }, bundle: { type: 'string' }, runs: { type: 'string', default: '0' }, cache: { type: 'string', default: '100' }, options: { type: 'string', default: '{}' } },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!values.temporal || !values.bundle || !gc) throw new Error('Usage: node --expose-gc --import tsx bench/workerMemory.ts --temporal ADDRESS --bundle FILE');
const temporalAddress = values.temporal;
const runs = Number(values.runs);
const cache = Number(values.cache);

const mb = (bytes: number) => Math.round(bytes / 1_048_576);
const stages: Record<string, { rssMb: number; heapMb: number; heapTotalMb: number; anonymousMb: number }> = {};
async function stage(name: string) {
  gc!();
  await sleep(200);
  gc!();
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  const anonymousKb = /^Anonymous:\s+(\d+)/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1];
  stages[name] = { rssMb: mb(rss), heapMb: mb(heapUsed), heapTotalMb: mb(heapTotal), anonymousMb: mb(Number(anonymousKb ?? 0) * 1024) };
}

await stage('node');
const { NativeConnection, Worker } = await import('@temporalio/worker');
await stage('sdk imported');
const { Client, Connection } = await import('@temporalio/client');
const { createDatabase } = await import('../db/pool.js');
const { collectActivities } = await import('../process/registry.js');
const { AREAS } = await import('../process/areas.js');
const { createLocalPlatform } = await import('../src/platform/localPlatform.js');
const { createLogger } = await import('../src/core/logger.js');
const { systemClock } = await import('../src/core/clock.js');
await stage('app imported');
const connection = await NativeConnection.connect({ address: temporalAddress });
const database = createDatabase('postgres://nobody:none@127.0.0.1:1/none', 10);
const client = new Client({ connection: Connection.lazy({ address: temporalAddress }), namespace: 'default' });
const taskQueue = `worker-memory-${Date.now()}`;
const deps = { db: database.db, platform: createLocalPlatform(database.db), clock: systemClock, logger: createLogger('silent', taskQueue), temporal: { client, taskQueue }, webhooks: { allowInsecureLocal: false } };
const worker = await Worker.create({
  connection,
  namespace: 'default',
  taskQueue,
  workflowBundle: { codePath: values.bundle },
  activities: collectActivities(AREAS, deps),
  maxCachedWorkflows: cache,
  maxConcurrentActivityTaskExecutions: 20,
  ...(JSON.parse(values.options) as object),
});
await stage('worker created');
const running = worker.run();
await sleep(3000);
await stage('polling');
if (runs > 0) {
  const now = Date.now();
  for (let i = 0; i < runs; i += 50) {
    const ids = Array.from({ length: Math.min(50, runs - i) }, (_, k) => i + k);
    await Promise.all(ids.map((id) => client.workflow.start('giveaway', { taskQueue, workflowId: `${taskQueue}/${id}`, args: [{ guildId: '1', giveawayId: id, startsAtMs: now, endsAtMs: now + 3_600_000, rerollWindowMs: 86_400_000 }] })));
  }
  for (let s = 0; s < 120 && worker.getStatus().numCachedWorkflows < Math.min(runs, cache); s++) await sleep(1000);
  await sleep(3000);
  await stage(`${runs} runs started, ${worker.getStatus().numCachedWorkflows} cached`);
}
worker.shutdown();
await running;
await connection.close();
console.log(JSON.stringify(stages, null, 1));
process.exit(0);
