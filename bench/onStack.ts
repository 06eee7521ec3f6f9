import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { Client, Connection } from '@temporalio/client';
import { createDatabase } from '../db/pool.js';
import { loadConfig } from '../src/core/config.js';
import { threadCpuMs } from './machineCpu.js';
import type { BenchValues } from './options.js';
import { SCENARIOS, type ScenarioResult } from './scenarioTable.js';
import type { ScenarioContext } from './scenarios/context.js';
import { createBenchKey, seedBenchGuild } from './seed.js';
import { startProdTopology, type ProdTopology } from './prodTopology.js';
import type { ServerThreadData } from './serverThread.js';
import { startBenchStack, type BenchTarget } from './stack.js';

/** The Temporal the scenarios ran against, as the report records it. */
export interface TemporalRecord {
  target: BenchTarget;
  serverVersion: string;
  historyShards: number | null;
  workers: number;
}

/**
 * The scenarios that run with `--topology prod`: the others read the api thread's event loop, the bare route or the
 * shared pool, which that topology does not have.
 */
export const PROD_TOPOLOGY_SCENARIOS: ReadonlyArray<keyof typeof SCENARIOS> = ['xp-latency', 'webhook-latency', 'webhook-throughput', 'webhook-slow-receiver', 'purge'];

/** The scenarios that drive the api and worker: PostgreSQL and Temporal started (or reused), the guild seeded. */
export async function runOnStack(
  onStack: Array<keyof typeof SCENARIOS>,
  o: { values: BenchValues; target: BenchTarget; workers: number; root: string; log: (line: string) => void },
): Promise<{ results: ScenarioResult[]; temporal: TemporalRecord }> {
  const { values, target, workers, log } = o;
  const prod = values.topology === 'prod';
  const refused = prod ? onStack.filter((name) => !PROD_TOPOLOGY_SCENARIOS.includes(name)) : [];
  if (refused.length > 0) throw new Error(`--topology prod runs only ${PROD_TOPOLOGY_SCENARIOS.join(', ')} (not ${refused.join(', ')}).`);
  const members = Number(values.members);
  const stack = await startBenchStack(loadConfig(), o.root, target, log);
  const { db, close } = createDatabase(stack.databaseUrl, 4);
  const threads: Worker[] = [];
  let processes: ProdTopology | undefined;
  try {
    await seedBenchGuild(db, members, log);
    const taskQueue = `bench-${randomUUID()}`;
    const startThread = (role: ServerThreadData['role']) => {
      const thread = new Worker(new URL('./serverThread.boot.mjs', import.meta.url), {
        workerData: {
          databaseUrl: stack.databaseUrl,
          temporalAddress: stack.temporalAddress,
          temporalNamespace: stack.temporalNamespace,
          taskQueue,
          role,
          credentialCacheEntries: Number(values['credential-cache']),
          responseCheck: values['response-check'],
        } satisfies ServerThreadData,
      });
      threads.push(thread);
      return new Promise<{ fullPort: number; barePort: number; tid: number }>((resolve, reject) => {
        thread.once('message', resolve);
        thread.once('error', reject);
      });
    };
    let urls: Pick<ScenarioContext, 'fullUrl' | 'bareUrl' | 'apiThreadCpuMs'>;
    if (prod) {
      processes = await startProdTopology({
        databaseUrl: stack.databaseUrl,
        temporalAddress: stack.temporalAddress,
        temporalNamespace: stack.temporalNamespace,
        taskQueue,
        workers,
        credentialCacheEntries: Number(values['credential-cache']),
        responseCheck: values['response-check'],
        apiEagerWorker: values['api-eager-worker'],
      });
      log(`topology prod: the api${values['api-eager-worker'] ? ' (with its eager worker)' : ''} and ${workers} worker process(es)`);
      const noThread = async (): Promise<number> => {
        throw new Error('--topology prod has no api thread');
      };
      urls = { fullUrl: processes.fullUrl, bareUrl: '', apiThreadCpuMs: noThread };
    } else {
      const ports = await startThread('api+worker');
      for (let i = 1; i < workers; i++) await startThread('worker');
      const apiThreadCpuMs = () => threadCpuMs(ports.tid);
      urls = { fullUrl: `http://127.0.0.1:${ports.fullPort}`, bareUrl: `http://127.0.0.1:${ports.barePort}`, apiThreadCpuMs };
    }
    const ctx: ScenarioContext = {
      ...urls,
      processCpuMs: processes?.cpuMs,
      db,
      databaseUrl: stack.databaseUrl,
      apiKey: await createBenchKey(db),
      members,
      connections: Number(values.connections),
      durationSeconds: Number(values.duration),
      readRounds: Number(values['read-rounds']),
      xpRatePerSecond: Number(values.rate),
      leaderboardRows: Number(values.rows),
      purgeDutyPercent: values['purge-duty'] === undefined ? undefined : Number(values['purge-duty']),
      purgeBatchRows: values['purge-batch'] === undefined ? undefined : Number(values['purge-batch']),
      purgeRowsPerSecond: values['purge-rate'] === undefined ? undefined : Number(values['purge-rate']),
      readRatePerSecond: values['read-rate'] === undefined ? undefined : Number(values['read-rate']),
      workers,
      giveaways: Number(values.giveaways),
      temporal: {
        client: new Client({ connection: Connection.lazy({ address: stack.temporalAddress }), namespace: stack.temporalNamespace }),
        taskQueue,
      },
      temporalAddress: stack.temporalAddress,
    };
    const { serverVersion } = await ctx.temporal.client.workflowService.getSystemInfo({});
    const temporal: TemporalRecord = { target, serverVersion: serverVersion ?? 'unknown', historyShards: stack.historyShards, workers };
    log(`Temporal ${target === 'prod' ? 'server' : 'dev server'} ${temporal.serverVersion} at ${stack.temporalAddress}, ${workers} worker(s)`);
    const results: ScenarioResult[] = [];
    for (const name of onStack) {
      log(`running ${name}...`);
      results.push(await SCENARIOS[name](ctx));
    }
    return { results, temporal };
  } finally {
    await processes?.stop();
    await Promise.all(
      threads.map((thread) => {
        const exited = new Promise((resolve) => thread.once('exit', resolve));
        thread.postMessage('stop');
        return exited;
      }),
    );
    await close();
    await stack.stop();
  }
}
