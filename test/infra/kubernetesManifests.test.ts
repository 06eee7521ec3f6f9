import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/core/config.js';
import { opsEndpoints } from '../../process/ops/opsEndpoints.js';
import { containerEnv } from './kubernetes/containerEnv.js';
import { kustomizations, manifestFiles, parseManifests, ROOT, schemaErrors, type Manifest } from './kubernetes/manifests.js';
import { unknownFieldErrors } from './kubernetes/unknownFields.js';

// deploy/kubernetes as CI checks it (docs/deployment.md, Kubernetes): the Kubernetes API's schema of each kind, then
// what the schema cannot know: every variable one the config reads and the whole environment a valid configuration,
// probes on each process's own port and paths, grace periods above the stop's deadline, the bot pods' shards.

const files = manifestFiles();
const all = files.flatMap((f) => f.manifests);
const configMaps = all.filter((m) => m.kind === 'ConfigMap');
const workloads = all.filter((m) => ['Deployment', 'StatefulSet', 'Job'].includes(m.kind));
const named = (kind: string, name: string) => all.find((m) => m.kind === kind && m.metadata.name === name)!;

/** The process a container runs: the entrypoint its args name (the image's default command is the api). */
const processOf = (container: any) => basename(container.args?.[0] ?? 'api.js', '.js');
const OPS_PORT: Record<string, (c: Config) => number> = {
  api: (c) => c.ops.apiOpsPort,
  worker: (c) => c.ops.workerPort,
  bot: (c) => c.bot.port,
  discordEgress: (c) => c.egress.port,
};
const portNumber = (container: any, port: string | number) => (typeof port === 'number' ? port : container.ports?.find((p: any) => p.name === port)?.containerPort);

/** Each pod a workload runs: a StatefulSet's by ordinal, the others' under a generated name. */
const podNames = (w: Manifest) => (w.kind === 'StatefulSet' ? Array.from({ length: w.spec.replicas }, (_, i) => `${w.metadata.name}-${i}`) : [`${w.metadata.name}-7d9f8b6c5-x2x4q`]);

function configOf(w: Manifest, container: any, podName = podNames(w)[0]!): Config {
  const { env, problems } = containerEnv(w.spec.template.spec, container, configMaps, podName);
  if (problems.length) throw new Error(problems.join('\n'));
  return loadConfig(env);
}

/** The probes' problems: each on the process's own ops port, liveness and startup on /livez, readiness on /readyz. */
function probeProblems(container: any, config: Config): string[] {
  const expected = OPS_PORT[processOf(container)];
  if (!expected) return container.livenessProbe || container.readinessProbe ? [`${container.name}: probes on a process without an ops port`] : [];
  const problems: string[] = [];
  for (const [probe, path] of [['livenessProbe', '/livez'], ['readinessProbe', '/readyz'], ['startupProbe', '/livez']] as const) {
    const get = container[probe]?.httpGet;
    if (!get) {
      if (probe !== 'startupProbe') problems.push(`${container.name}: no ${probe}`);
      continue;
    }
    if (get.path !== path) problems.push(`${container.name}: ${probe} asks ${get.path}, not ${path}`);
    const port = portNumber(container, get.port);
    if (port !== expected(config)) problems.push(`${container.name}: ${probe} on port ${port ?? get.port}, the process serves its probes on ${expected(config)}`);
  }
  return problems;
}

/** A pod's grace period must outlast the process's own stop deadline, or the kubelet kills it mid-drain. */
function graceProblems(w: Manifest): string[] {
  const deadlineMs = configOf(w, w.spec.template.spec.containers[0]).ops.shutdownDeadlineMs;
  const graceSeconds = w.spec.template.spec.terminationGracePeriodSeconds ?? 30;
  return graceSeconds * 1000 > deadlineMs ? [] : [`${w.metadata.name}: terminationGracePeriodSeconds ${graceSeconds} is not above SHUTDOWN_DEADLINE_MS ${deadlineMs}`];
}

/** The shards the bot StatefulSet's pods run, in order, each as often as a pod runs it. */
function botShards(bot: Manifest): number[] {
  const container = bot.spec.template.spec.containers[0];
  return podNames(bot)
    .flatMap((podName) => {
      const ids = configOf(bot, container, podName).bot.shardIds as { start: number; end: number };
      return Array.from({ length: ids.end - ids.start + 1 }, (_, i) => ids.start + i);
    })
    .sort((a, b) => a - b);
}

describe('deploy/kubernetes', () => {
  let opsOrigin: string;
  const server = createServer((req, res) => {
    if (!ops.handle(req, res)) res.writeHead(404).end();
  });
  const ops = opsEndpoints({});
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    opsOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('holds every process, and each object passes the Kubernetes API schema of its apiVersion and kind', async () => {
    expect(workloads.map((w) => `${w.kind} ${w.metadata.name}`).sort()).toEqual([
      'Deployment community-bot-api',
      'Deployment community-bot-discord-egress',
      'Deployment community-bot-worker',
      'Job community-bot-migrate',
      'StatefulSet community-bot-bot',
    ]);
    expect((await Promise.all(all.map(schemaErrors))).flat()).toEqual([]);
  });

  // The TypeScript compiler reads the kinds' interfaces: seconds.
  it('has no field its kind does not define (the API server refuses them)', { timeout: 90_000 }, () => {
    expect(unknownFieldErrors(all)).toEqual([]);
  });

  it('lists every manifest file in exactly one kustomization', () => {
    expect(kustomizations().flatMap((k) => k.resources).sort()).toEqual(files.map((f) => f.file).sort());
  });

  it("sets only variables the config reads, secrets from mounted files, and each container's environment is a valid configuration", () => {
    for (const w of workloads) {
      for (const container of w.spec.template.spec.containers) {
        for (const podName of podNames(w)) expect(() => configOf(w, container, podName), `${w.metadata.name} (${podName})`).not.toThrow();
      }
    }
  });

  it("probes each process's own ops port at the paths its ops endpoints answer", async () => {
    for (const w of workloads) {
      for (const container of w.spec.template.spec.containers) expect(probeProblems(container, configOf(w, container))).toEqual([]);
    }
    for (const path of ['/livez', '/readyz']) expect((await fetch(`${opsOrigin}${path}`)).status).toBe(200);
  });

  it('gives every long-running pod a grace period above its stop deadline, and a PodDisruptionBudget to each replicated one', () => {
    for (const w of workloads.filter((w) => w.kind !== 'Job')) {
      expect(graceProblems(w)).toEqual([]);
      const budget = all.find((m) => m.kind === 'PodDisruptionBudget' && m.metadata.name === w.metadata.name);
      if (w.spec.replicas > 1) expect(budget?.spec.selector.matchLabels, w.metadata.name).toEqual(w.spec.selector.matchLabels);
    }
  });

  it("runs every shard of DISCORD_SHARD_COUNT in exactly one bot pod, each pod's range from its ordinal", () => {
    const bot = named('StatefulSet', 'community-bot-bot');
    const count = configOf(bot, bot.spec.template.spec.containers[0]).bot.shardCount!;
    expect(count).toBeGreaterThan(1);
    expect(botShards(bot)).toEqual(Array.from({ length: count }, (_, i) => i));
  });

  it('counts the replicas it runs in DATABASE_BUDGET_INSTANCES', () => {
    const api = named('Deployment', 'community-bot-api');
    const { budgetInstances } = configOf(api, api.spec.template.spec.containers[0]).database;
    expect(budgetInstances).toEqual({
      api: api.spec.replicas,
      worker: named('Deployment', 'community-bot-worker').spec.replicas,
      bot: named('StatefulSet', 'community-bot-bot').spec.replicas,
    });
  });

  it("points the Services at the ports the processes listen on, and every process's DISCORD_API_URL at the egress", () => {
    const api = named('Deployment', 'community-bot-api');
    const apiContainer = api.spec.template.spec.containers[0];
    const apiService = named('Service', 'community-bot-api');
    expect(portNumber(apiContainer, apiService.spec.ports[0].targetPort)).toBe(configOf(api, apiContainer).http.port);
    expect(apiService.spec.ports).toHaveLength(1);

    const egress = named('Deployment', 'community-bot-discord-egress');
    const egressContainer = egress.spec.template.spec.containers[0];
    const egressService = named('Service', 'community-bot-discord-egress');
    expect(portNumber(egressContainer, egressService.spec.ports[0].targetPort)).toBe(configOf(egress, egressContainer).egress.port);
    expect(egress.spec.replicas).toBe(1);
    const egressUrl = `http://${egressService.metadata.name}:${egressService.spec.ports[0].port}/api`;
    for (const w of workloads.filter((w) => w !== egress)) {
      expect(configOf(w, w.spec.template.spec.containers[0]).platform, w.metadata.name).toMatchObject({ kind: 'discord', apiUrl: egressUrl });
    }
  });

  it('runs in each container an entrypoint the image holds: one `npm run build` emits into dist/', () => {
    const built: string[] = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8').replace(/^\/\/.*$/gm, '')).files;
    for (const w of workloads) {
      for (const container of w.spec.template.spec.containers) {
        const source = String(container.args[0]).replace(/^dist\//, '').replace(/\.js$/, '.ts');
        expect(container.args[0], w.metadata.name).toMatch(/^dist\/process\/entrypoints\/\w+\.js$/);
        expect(existsSync(join(ROOT, source)), source).toBe(true);
        expect(built, source).toContain(source);
      }
    }
  });
});

describe('a broken manifest fails the checks', () => {
  const api = () => structuredClone(named('Deployment', 'community-bot-api'));

  it('a field of the wrong type fails the schema, naming the field', async () => {
    const broken = api();
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    expect(await schemaErrors(broken)).toEqual(['Deployment community-bot-api: data/spec/template/spec/containers/0/ports/0/containerPort must be integer']);
  });

  it('a probe without its port and a kind the API does not have fail the schema', async () => {
    const [probe] = parseManifests('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: c\n      readinessProbe: {httpGet: {path: /readyz}}\n');
    expect(await schemaErrors(probe!)).toEqual(['Pod p: data/spec/containers/0/readinessProbe/httpGet must have required property port']);
    expect(await schemaErrors({ apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } })).toEqual(['Deploymnet x: no schema for apiVersion apps/v1, kind Deploymnet']);
  });

  it('a misspelt field, which the schema lets through, is named', { timeout: 90_000 }, async () => {
    const broken = api();
    broken.spec.template.spec.containers[0].livenessProbe.httpGet.paht = '/livez';
    expect(await schemaErrors(broken)).toEqual([]);
    expect(unknownFieldErrors([broken])).toEqual([
      `Deployment community-bot-api: Object literal may only specify known properties, and '"paht"' does not exist in type 'IHTTPGetAction'.`,
    ]);
  });

  it('a variable the config does not read, or a secret file outside the Secret volume, is named', () => {
    const broken = api();
    const container = broken.spec.template.spec.containers[0];
    container.env.push({ name: 'DATABASE_POOL_SIZE', value: '10' });
    container.env.find((e: any) => e.name === 'DISCORD_TOKEN_FILE').value = '/etc/discord-token';
    expect(containerEnv(broken.spec.template.spec, container, configMaps, 'api-0').problems).toEqual([
      'DATABASE_POOL_SIZE is not a variable the config reads',
      'DISCORD_TOKEN_FILE: /etc/discord-token is not in a Secret volume of the container',
    ]);
  });

  it('a probe on the public port or at another path is named', () => {
    const broken = api();
    const container = broken.spec.template.spec.containers[0];
    container.readinessProbe.httpGet = { path: '/healthz', port: 'http' };
    expect(probeProblems(container, configOf(broken, container))).toEqual([
      'api: readinessProbe asks /healthz, not /readyz',
      'api: readinessProbe on port 3000, the process serves its probes on 3003',
    ]);
  });

  it('a grace period not above the stop deadline is named', () => {
    const broken = api();
    broken.spec.template.spec.terminationGracePeriodSeconds = 25;
    expect(graceProblems(broken)).toEqual(['community-bot-api: terminationGracePeriodSeconds 25 is not above SHUTDOWN_DEADLINE_MS 25000']);
  });

  it('a shard count the bot pods do not cover leaves shards out, and a pod past the shards does not start', () => {
    const bot = structuredClone(named('StatefulSet', 'community-bot-bot'));
    const container = bot.spec.template.spec.containers[0];
    container.env.find((e: any) => e.name === 'DISCORD_SHARD_COUNT').value = '9';
    expect(botShards(bot)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    bot.spec.replicas = 4;
    expect(() => configOf(bot, container, 'community-bot-bot-3')).toThrow('BOT_POD_NAME: ordinal 3 would start at shard 12, past DISCORD_SHARD_COUNT (9)');
  });
});
