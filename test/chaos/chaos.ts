import { createServer } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DEMO_GUILD_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../process/demo/demoGuild.js';
import { systemClock } from '../../src/core/clock.js';
import { SCOPES } from '../../src/core/scopes.js';
import { createApiKey } from '../../src/keys/keyManagement.js';
import { addEndpoint } from '../../src/webhooks/endpointManagement.js';
import { Balancer } from './balancer.js';
import { checkEffects, flowRefused, takeBaseline, untilDelivered } from './checks.js';
import { MixedLoad, untilAllTerminal, type LoadTargets } from './load.js';
import { ChaosStack } from './stack.js';

// `npm run chaos [-- --short]`: the fault suite (docs/chaos.md). Loopback only; every wait and the load are bounded.

const SHORT = process.argv.includes('--short');
// `--only roll,frontend`: the faults whose name contains one of these words (a scenario tried on its own).
const ONLY = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '').split(',').filter(Boolean) : [];
const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const SETTLE_MS = 240_000;
const log = (line: string) => console.log(`chaos: ${line}`);

interface Fault {
  name: string;
  seconds: number;
  /** No dependency goes away: every request must be answered 2xx (no 5xx, none unanswered). */
  noErrors?: boolean;
  begin(): Promise<void> | void;
  end(): Promise<void> | void;
}

interface PhaseFigures {
  fault: string;
  faultSeconds: number;
  requests: number;
  statuses: Record<string, number>;
  accepted: Record<string, number>;
  noAnswer: number;
  /** Flow runs that ended `error` because their own step refused (checks.ts); every other run must succeed. */
  flowsRefused: number;
  /** From the fault's end until the api's and the worker's /readyz both answer 200 with every dependency ok. */
  recoverySeconds: number;
  /** From the load's end until every accepted operation is terminal. */
  settleSeconds: number;
  /** From then until every bank event has been delivered to the endpoint. */
  deliverySeconds: number;
  problems: string[];
}

/** A customer's receiver: counts the 2xx answers per event; while failing, refuses the first try of every second event. */
async function startCountingReceiver() {
  const delivered = new Map<string, number>();
  const tries = new Map<string, number>();
  let failing = false;
  let seen = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      const nth = (tries.get(id) ?? 0) + 1;
      tries.set(id, nth);
      if (nth === 1) seen++;
      if (failing && nth === 1 && seen % 2 === 0) return void res.writeHead(500).end('failing on purpose');
      delivered.set(id, (delivered.get(id) ?? 0) + 1);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    delivered,
    setFailing: (on: boolean) => void (failing = on),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function untilBothReady(stack: ChaosStack, timeoutMs: number): Promise<number> {
  const started = Date.now();
  // Ready is no longer the dependencies' state (docs/deployment.md, Probes): recovered when every one reports ok.
  const ok = (url: string) =>
    fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
      async (r) => r.status === 200 && Object.values(((await r.json()) as { dependencies?: Record<string, string> }).dependencies ?? {}).every((state) => state === 'ok'),
      () => false,
    );
  while (Date.now() - started < timeoutMs) {
    if ((await ok(`${stack.apiOpsOrigin}/readyz`)) && (await ok(`${stack.workerOrigin}/readyz`))) break;
    await sleep(100);
  }
  return Date.now() - started;
}

async function main(): Promise<number> {
  const stack = new ChaosStack();
  const balancer = new Balancer(1_000);
  const receiver = await startCountingReceiver();
  const startedAt = Date.now();
  const phases: PhaseFigures[] = [];
  try {
    await stack.start(log);
    // The clients reach the api through a balancer, as behind a Kubernetes Service.
    const balancerOrigin = await balancer.start();
    await balancer.add({ name: 'api-1', origin: stack.apiOrigin, opsOrigin: stack.apiOpsOrigin });
    const { db } = stack.db;
    await seedDemoGuild(db);
    const key = async (name: string) =>
      (await createApiKey(db, systemClock, { guildId: DEMO_GUILD_ID, name, scopes: [...SCOPES], expiresInDays: null, createdBy: DEMO_OWNER_ID, actor: { type: 'system' } })).key;
    const [mainKey, moderationKey] = [await key('chaos'), await key('chaos moderation')];
    await addEndpoint({ db, clock: systemClock, actor: { type: 'system' }, allowInsecureLocal: true }, { guildId: DEMO_GUILD_ID, url: receiver.url, events: ['bank.transaction'] });
    const apiUrl = `${balancerOrigin}/api/v1/guilds/${DEMO_GUILD_ID}`;
    const flows = (await (await fetch(`${apiUrl}/flows`, { headers: { Authorization: `Bearer ${mainKey}` } })).json()) as { items: Array<{ id: number; name: string }> };
    const flowId = String(flows.items.find((f) => f.name === 'Pay a reward')!.id);
    const member = (i: number) => `11000000000000${String(1000 + i).padStart(5, '0')}`;
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => member(from + i));
    const targets: LoadTargets = { apiUrl, key: mainKey, moderationKey, xpUsers: range(14, 24), bankUsers: range(24, 34), warnUsers: range(34, 41), flowId };
    const baseline = await takeBaseline(db, DEMO_GUILD_ID, targets.xpUsers);
    const accepted: MixedLoad['accepted'] = [];
    const rollProblems: string[] = [];

    const faults: Fault[] = [
      { name: 'worker kill -9, restarted', seconds: 10, begin: () => stack.killWorker(), end: () => stack.startWorker(false) },
      { name: 'PostgreSQL stopped 10 s', seconds: 10, begin: () => stack.stopPostgres(), end: () => stack.startPostgres() },
      { name: 'Temporal frozen 10 s (SIGSTOP)', seconds: 10, begin: () => stack.freezeTemporal(), end: () => stack.thawTemporal() },
      { name: 'receiver failing half its requests', seconds: 20, begin: () => receiver.setFailing(true), end: () => receiver.setFailing(false) },
      {
        name: 'rolling restart of the api and the worker',
        seconds: 0,
        noErrors: true,
        begin: async () => void rollProblems.push(...(await stack.roll(balancer))),
        end: () => {},
      },
      { name: 'Temporal frontend restarted (stopped 10 s, same port and database)', seconds: 10, begin: () => stack.stopTemporal(), end: () => stack.restartTemporal() },
      ...(SHORT ? [] : [{ name: 'PostgreSQL stopped 5 min', seconds: 300, begin: () => stack.stopPostgres(), end: () => stack.startPostgres() }]),
    ];
    for (const fault of faults.filter((f) => ONLY.length === 0 || ONLY.some((word) => f.name.includes(word)))) {
      log(`${fault.name}: load on, fault for ${fault.seconds} s`);
      balancer.errors.length = 0;
      rollProblems.length = 0;
      const load = new MixedLoad(targets, { phase: phases.length + 1, intervalMs: 150, maxOps: SHORT ? 400 : 3_000 });
      load.start();
      await sleep(3_000);
      await fault.begin();
      await sleep(fault.seconds * 1_000);
      await fault.end();
      const recoveryMs = await untilBothReady(stack, 180_000);
      await sleep(3_000);
      await load.stop();
      accepted.push(...load.accepted);
      const settleMs = await untilAllTerminal(apiUrl, mainKey, moderationKey, accepted, SETTLE_MS);
      // A first attempt refused by the receiver is retried a minute later (the spec's schedule).
      const deliveryMs = await untilDelivered(db, DEMO_GUILD_ID, baseline, receiver.delivered, 150_000);
      const problems = [
        ...load.violations,
        ...stack.unexpectedExits,
        ...rollProblems,
        // The api stays ready whatever its dependencies do, so the balancer never has to fail a request.
        ...balancer.errors.map((e) => `the balancer failed a request: ${e}`),
        ...(fault.noErrors ? clientErrors(load) : []),
        ...(await checkEffects(db, DEMO_GUILD_ID, baseline, accepted, receiver.delivered)),
      ];
      const kinds = ['xp', 'bank', 'flow', 'warn'] as const;
      const figures: PhaseFigures = {
        fault: fault.name,
        faultSeconds: fault.seconds,
        requests: Object.values(load.statuses).reduce((a, b) => a + b, 0) + load.noAnswer,
        statuses: load.statuses,
        accepted: Object.fromEntries(kinds.map((k) => [k, load.accepted.filter((op) => op.kind === k).length])),
        noAnswer: load.noAnswer,
        flowsRefused: load.accepted.filter(flowRefused).length,
        recoverySeconds: round(recoveryMs),
        settleSeconds: round(settleMs),
        deliverySeconds: round(deliveryMs),
        problems,
      };
      phases.push(figures);
      stack.unexpectedExits.length = 0;
      log(
        `${fault.name}: ${figures.requests} requests (${Object.entries(load.statuses).map(([s, n]) => `${s}: ${n}`).join(', ')}${load.noAnswer ? `, no answer: ${load.noAnswer}` : ''}), ` +
          `recovered ${figures.recoverySeconds} s after the fault, all terminal ${figures.settleSeconds} s later, delivered ${figures.deliverySeconds} s later, ` +
          `${problems.length === 0 ? 'no problem' : `${problems.length} problems`}`,
      );
      for (const problem of problems.slice(0, 20)) log(`  problem: ${problem}`);
    }
  } finally {
    await balancer.close();
    await stack.stop().catch((err: unknown) => log(`stopping the stack failed: ${String(err)}`));
    await receiver.close();
  }
  const failed = phases.filter((p) => p.problems.length > 0);
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}chaos-${SHORT ? 'short' : 'full'}.json`;
  await writeFile(file, `${JSON.stringify({ variant: SHORT ? 'short' : 'full', at: new Date().toISOString(), node: process.version, seconds: round(Date.now() - startedAt), phases }, null, 2)}\n`);
  log(`figures written to ${file}`);
  log(failed.length === 0 ? `every fault held (${phases.length} of ${phases.length})` : `FAILED: ${failed.length} of ${phases.length} faults broke an invariant`);
  return failed.length === 0 ? 0 : 1;
}

const round = (ms: number) => Math.round(ms / 100) / 10;

/** Any answer but a success, and any request left without one, is an error a client saw. */
const clientErrors = (load: MixedLoad) => [
  ...Object.entries(load.statuses).flatMap(([status, n]) => (Number(status) >= 300 ? [`${n} requests answered ${status}`] : [])),
  ...(load.noAnswer > 0 ? [`${load.noAnswer} requests without an answer`] : []),
];

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
