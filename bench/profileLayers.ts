import { readFile } from 'node:fs/promises';

// Per-layer CPU of the api thread from a V8 .cpuprofile (node --cpu-prof, one file per thread), for the read path:
//   NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" npx tsx bench/run.ts --only read --duration 5 --read-rounds 2
//   npx tsx bench/profileLayers.ts /tmp/prof/<the api thread's file>.cpuprofile
// Only the seconds in which the full chain was under load count (the bare route's seconds are left out), and each
// sample goes to the layer of the nearest project frame on its stack, else to the library it is in.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The layer of a project file, by path; the first match wins. */
const PROJECT_LAYERS: Array<[RegExp, string]> = [
  [/\/api\/middleware\/authenticate\.ts|\/src\/keys\/|\/db\/keys\//, 'key lookup and hash'],
  [/\/api\/keyHitCounter\.ts|\/api\/middleware\/rateLimit\.ts|\/src\/requests\/rateLimitWindows\.ts|\/src\/core\/fixedWindow\.ts/, 'rate-limit counting and headers'],
  [/\/api\/middleware\/(featureGate|guildAccess|requireScope)\.ts/, 'feature, plan, scope and guild gates'],
  [/\/api\/idempotency\.ts|\/src\/requests\/idempotency\.ts/, 'idempotency'],
  [/\/api\/mountRoutes\.ts/, 'input validation'],
  [/\/api\/middleware\/requestMetrics\.ts|\/src\/core\/metrics\.ts/, 'metrics'],
  [/\/api\/middleware\/(errorBoundary|originGuard|fallback)\.ts/, 'error boundary, request id, origin'],
  // The webhook-flow middleware only tests a regex; what runs under it is the router matching and composing the chain.
  [/\/api\/routes\/flowWebhooks\.ts|\/api\/routeTable\.ts/, 'Koa and router'],
  [/\/api\/routes\/|\/src\/bank\/|\/db\/bank\//, 'handler (the balance read and its SQL)'],
  [/\/bench\/bareApp\.ts/, 'bare route'],
];

/**
 * Libraries, for samples with no project frame (code resumed from a socket callback or a microtask): the first
 * library frame from the leaf up names the layer, so a socket write (writev) made for a query counts as
 * PostgreSQL client and one made for a response as the HTTP response.
 */
const LIBRARY_LAYERS: Array<[RegExp, string]> = [
  [/node_modules\/(pino|thread-stream|sonic-boom)\//, 'logging'],
  [/node_modules\/prom-client\//, 'metrics'],
  [/node_modules\/zod\//, 'validation (zod, outside a project frame)'],
  [/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|kysely)\//, 'PostgreSQL client (pg, kysely; its socket writes and reads)'],
  [/node_modules\/koa\/lib\/application\.js/, 'HTTP response (Koa respond, socket write)'],
  [/node_modules\/(koa|@koa|koa-compose|path-to-regexp|statuses|on-finished|content-type|mime-types|accepts|type-is|cookies|delegates|only|vary|fresh|encodeurl|escape-html|http-errors|ee-first)\//, 'Koa and router'],
  [/^node:_http_(server|common|incoming)/, 'HTTP request parsing (node)'],
];
/** Module loading, bundling and app assembly: the thread's start, not its load. */
const STARTUP = /node_modules\/(webpack|@asteasolutions|@temporalio\/worker\/lib\/workflow\/bundler)|\/bench\/serverThread\.ts|node:internal\/modules\//;

const layerOfProject = (url: string) => PROJECT_LAYERS.find(([re]) => re.test(url))?.[1];
const isProject = (url: string) => url.includes('/wt-') || (url.startsWith('file://') && !url.includes('node_modules'));

function layerOf(stack: ProfileNode[]): string {
  const leaf = stack[0]!.callFrame;
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  if (leaf.functionName === '(idle)' || leaf.functionName === '(program)') return leaf.functionName;
  // Serialisation: JSON.stringify of a response body, wherever Koa calls it from.
  if (stack.some((n) => n.callFrame.functionName === 'stringify' && n.callFrame.url === '')) return 'serialisation (JSON.stringify)';
  // The nearest project frame names the layer; the schema parse of what leaves is called by runHandler.
  const nearest = stack.find((n) => isProject(n.callFrame.url) && (layerOfProject(n.callFrame.url) || /\/api\/runHandler\.ts/.test(n.callFrame.url)));
  if (nearest) {
    if (!/\/api\/runHandler\.ts/.test(nearest.callFrame.url)) return layerOfProject(nearest.callFrame.url)!;
    const below = stack.slice(0, stack.indexOf(nearest));
    return below.some((n) => /node_modules\/zod\//.test(n.callFrame.url)) ? 'output validation' : 'handler plumbing (runHandler)';
  }
  if (stack.some((n) => STARTUP.test(n.callFrame.url))) return 'startup';
  for (const node of stack) {
    const layer = LIBRARY_LAYERS.find(([re]) => re.test(node.callFrame.url))?.[1];
    if (layer) return layer;
  }
  return `node (sockets, timers, microtasks)`;
}

const file = process.argv[2];
if (!file) throw new Error('usage: tsx bench/profileLayers.ts <file.cpuprofile>');
const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stackOf = (id: number) => {
  const stack: ProfileNode[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
  return stack;
};

// Samples grouped by the second they fall in; a second counts when the full chain ran in it and the bare route did not.
const seconds = new Map<number, Array<{ layer: string; us: number }>>();
let t = 0;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i] ?? 0;
  const second = Math.floor(t / 1e6);
  if (!seconds.has(second)) seconds.set(second, []);
  seconds.get(second)!.push({ layer: layerOf(stackOf(id)), us: profile.timeDeltas[i + 1] ?? 0 });
});
const totals = new Map<string, number>();
let counted = 0;
for (const samples of seconds.values()) {
  const layers = new Set(samples.map((s) => s.layer));
  if (layers.has('bare route') || layers.has('startup') || !layers.has('key lookup and hash')) continue;
  counted++;
  for (const s of samples) totals.set(s.layer, (totals.get(s.layer) ?? 0) + s.us);
}
const busy = [...totals].filter(([layer]) => layer !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
console.log(`${counted} s of full-chain load; busy ${(busy / 1e6).toFixed(2)} s of CPU on the api thread`);
console.log('| layer | share of busy CPU |\n|---|---|');
for (const [layer, us] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (layer === '(idle)') continue;
  console.log(`| ${layer} | ${((us / busy) * 100).toFixed(1)} % |`);
}
