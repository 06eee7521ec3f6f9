import type { ActivityDeps } from '../activities/deps.js';
import type { AppDeps } from '../api/context.js';
import type { RouteDefinition } from '../api/route.js';
import type { ScheduleDefinition } from '../src/core/temporal/schedules.js';
import type { AreaModule, RelayPass } from './area.js';

/** Every area's activities under their names; a name defined by two areas stops the worker at start. */
export function collectActivities(areas: AreaModule[], deps: ActivityDeps): Record<string, (...args: never[]) => Promise<unknown>> {
  const registry: Record<string, (...args: never[]) => Promise<unknown>> = {};
  const owner = new Map<string, string>();
  for (const area of areas) {
    for (const [name, activity] of Object.entries(area.activities?.(deps) ?? {})) {
      const first = owner.get(name);
      if (first) throw new Error(`Activity ${name} is defined by both ${first} and ${area.name}.`);
      owner.set(name, area.name);
      registry[name] = activity;
    }
  }
  return registry;
}

export const collectRoutes = (areas: AreaModule[], deps: AppDeps): RouteDefinition[] => areas.flatMap((a) => a.routes?.(deps) ?? []);
export const collectRelays = (areas: AreaModule[]): RelayPass[] => areas.flatMap((a) => a.relays ?? []);
export const collectSchedules = (areas: AreaModule[]): ScheduleDefinition[] => areas.flatMap((a) => a.schedules ?? []);
export const collectRetiredSchedules = (areas: AreaModule[]): string[] => areas.flatMap((a) => a.retiredSchedules ?? []);
export const collectWorkerStartSteps = (areas: AreaModule[]) => areas.flatMap((a) => a.atWorkerStart ?? []);
