// The file-level rule (no-circular) cannot see a loop between areas made of files that do not import each other
// back: events/outbox.ts -> webhooks/a.ts and webhooks/b.ts -> events/c.ts. This test collapses the import graph
// of src/ (type-only imports included, as in .dependency-cruiser.cjs) to its areas, src/<area>, and refuses a cycle.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** One import between two areas, with the file that makes it. */
interface AreaEdge {
  from: string;
  to: string;
  via: string;
}

const areaOf = (path: string) => /^src\/([^/]+)\//.exec(path)?.[1];

/** Every import of one src/ area from another, as the repo's dependency-cruiser config resolves them. */
async function areaEdges(): Promise<AreaEdge[]> {
  const options = await extractDepcruiseOptions(join(repo, '.dependency-cruiser.cjs'));
  const tsConfig = join(repo, 'tsconfig.json');
  const { output } = await cruise(['src'], { ...options, baseDir: repo, tsConfig: { fileName: tsConfig } }, {}, { tsConfig: extractTSConfig(tsConfig) });
  const edges: AreaEdge[] = [];
  for (const module of (output as ICruiseResult).modules) {
    const from = areaOf(module.source);
    for (const dependency of module.dependencies) {
      const to = areaOf(dependency.resolved);
      if (from && to && from !== to) edges.push({ from, to, via: `${module.source} -> ${dependency.resolved}` });
    }
  }
  return edges;
}

/** The cycles of the area graph, each as its areas in order and the imports that close it (one per step). */
function areaCycles(edges: AreaEdge[]): string[] {
  const next = new Map<string, Map<string, string>>();
  for (const e of edges) {
    const targets = next.get(e.from) ?? new Map<string, string>();
    if (!targets.has(e.to)) targets.set(e.to, e.via);
    next.set(e.from, targets);
  }
  const cycles = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (area: string) => {
    state.set(area, 'open');
    path.push(area);
    for (const [to] of next.get(area) ?? []) {
      if (state.get(to) === 'open') {
        const loop = [...path.slice(path.indexOf(to)), to];
        const steps = loop.slice(1).map((b, i) => next.get(loop[i]!)!.get(b)!);
        cycles.add(`${loop.join(' -> ')} (${steps.join('; ')})`);
      } else if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(area, 'done');
  };
  for (const area of [...next.keys()].sort()) if (!state.has(area)) visit(area);
  return [...cycles];
}

describe('the areas of src/', () => {
  it('import each other without a cycle', async () => {
    const edges = await areaEdges();
    // The graph is read for real: the areas do use each other (shop uses the bank's ledger).
    expect(edges.some((e) => e.from === 'shop' && e.to === 'bank')).toBe(true);
    expect(areaCycles(edges)).toEqual([]);
  }, 60_000);

  it('reports a cycle that only shows once files are collapsed to their areas', () => {
    const edges: AreaEdge[] = [
      { from: 'events', to: 'webhooks', via: 'src/events/outbox.ts -> src/webhooks/batchLauncher.ts' },
      { from: 'webhooks', to: 'events', via: 'src/webhooks/endpointManagement.ts -> src/events/eventTypes.ts' },
      { from: 'shop', to: 'bank', via: 'src/shop/buyItem.ts -> src/bank/moveBalance.ts' },
    ];
    expect(areaCycles(edges)).toEqual([
      'events -> webhooks -> events (src/events/outbox.ts -> src/webhooks/batchLauncher.ts; src/webhooks/endpointManagement.ts -> src/events/eventTypes.ts)',
    ]);
    expect(areaCycles(edges.slice(1))).toEqual([]);
  });
});
