import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { FIXED_RETENTION_MS, RETENTION_DAYS_BY_PLAN, SELF_EXPIRING_KINDS } from '../../src/core/retention.js';
import { PURGE_STEPS } from '../../src/keys/retentionSteps.js';

// docs/retention.md's table is the declaration in src/core/retention.ts, kind by kind, and the purge has a step for each.
const doc = await readFile(new URL('../../docs/retention.md', import.meta.url), 'utf8');
const row = (kind: string) => doc.split('\n').find((line) => line.startsWith(`| \`${kind}\``))?.split('|').map((cell) => cell.trim());
const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

it.each(Object.entries(RETENTION_DAYS_BY_PLAN))('%s: the documented retention per plan is the declared one', (kind, byPlan) => {
  expect(row(kind)?.slice(2, 4)).toEqual([days(byPlan.free), days(byPlan.pro)]);
});

it.each(Object.entries(FIXED_RETENTION_MS))('%s: the same on every plan, as declared', (kind, ms) => {
  expect(row(kind)?.slice(2, 4)).toEqual([days(ms / 86_400_000), days(ms / 86_400_000)]);
});

it('every kind is documented and purged, and nothing else', () => {
  const kinds = [...Object.keys(RETENTION_DAYS_BY_PLAN), ...Object.keys(FIXED_RETENTION_MS), ...SELF_EXPIRING_KINDS].sort();
  for (const kind of kinds) expect(row(kind), kind).toBeDefined();
  expect(PURGE_STEPS.map((s) => s.kind).sort()).toEqual(kinds);
});
