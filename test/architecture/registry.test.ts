import { describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../activities/deps.js';
import type { AppDeps } from '../../api/context.js';
import type { AreaModule } from '../../process/area.js';
import { AREAS } from '../../process/areas.js';
import { collectActivities, collectRoutes, collectSchedules } from '../../process/registry.js';
import { WORKFLOW_REFS } from '../../process/workflowRefs.js';
import * as workflows from '../../workflows/index.js';

// The area list is the one registry: these checks keep it and the workflow bundle's entry in step.
// Route factories and activity factories only capture their dependencies, so placeholders do here.
const noDeps = { webhooks: { allowInsecureLocal: false } } as AppDeps & ActivityDeps;

describe('the list of areas', () => {
  it('names each area once', () => {
    const names = AREAS.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('claims every workflow the bundle exports, each by exactly one area, and nothing else', () => {
    const claimed = AREAS.flatMap((a) => (a.workflows ?? []).map((w) => w.name)).sort();
    expect(claimed).toEqual(Object.keys(workflows).sort());
  });

  it('claims the refs that are bound to the workflow functions (process/workflowRefs.ts), each under its own name', () => {
    for (const [name, ref] of Object.entries(WORKFLOW_REFS)) expect(ref.name).toBe(name);
    const claimed = AREAS.flatMap((a) => a.workflows ?? []);
    expect(new Set(claimed)).toEqual(new Set(Object.values(WORKFLOW_REFS)));
  });

  it('runs only claimed workflows from its schedules', () => {
    const claimed = new Set(AREAS.flatMap((a) => (a.workflows ?? []).map((w) => w.name)));
    for (const schedule of collectSchedules(AREAS)) expect(claimed).toContain(schedule.workflow.name);
  });

  it('gives each route the name of the area that mounts it', () => {
    for (const area of AREAS) {
      for (const route of area.routes?.(noDeps) ?? []) expect(`${route.operationId}: ${route.area}`).toBe(`${route.operationId}: ${area.name}`);
    }
  });

  it('mounts every route once', () => {
    const keys = collectRoutes(AREAS, noDeps).map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('registers every activity of every area', () => {
    const registry = collectActivities(AREAS, noDeps);
    const expected = AREAS.flatMap((a) => Object.keys(a.activities?.(noDeps) ?? {}));
    expect(Object.keys(registry).sort()).toEqual(expected.sort());
  });

  it('refuses two areas that define the same activity name', () => {
    const twin = (name: string): AreaModule => ({ name, activities: () => ({ postBankLog: async () => name }) });
    expect(() => collectActivities([twin('bank'), twin('shop')], noDeps)).toThrow('Activity postBankLog is defined by both bank and shop.');
  });
});
