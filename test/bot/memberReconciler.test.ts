import { describe, expect, it } from 'vitest';
import { memberReconciler, type ReconcileRequest } from '../../process/bot/memberReconciler.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild } from '../harness/fixtures.js';

// The pacing of member reconciliations after a new session, on its own: which servers, how many at a time, and how
// their pages are spread within the share of Discord's global limit. Its waits are recorded, not slept.

const database = useTestDatabase();

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
};

function bed(pacing: { concurrency: number; requestsPerSecond: number }) {
  const pushed: string[] = [];
  const skipped: Array<{ guildId: string; ref: unknown }> = [];
  const waits: number[] = [];
  const reconciler = memberReconciler({
    ...pacing,
    db: database.db,
    push: (r) => pushed.push(r.guildId),
    skip: (r) => skipped.push(r),
    onLookupFailed: (err) => {
      throw err;
    },
    wait: async (ms) => void waits.push(ms),
  });
  return { reconciler, pushed, skipped, waits };
}
const ask = (guildId: string, ref: unknown = 'session-1'): ReconcileRequest => ({ guildId, ref });

describe('member reconciliation pacing', () => {
  it("passes over servers whose features do not read members, and spreads the others' pages within the request budget, one server at a time", async () => {
    const [big, small, levelsOnly, mid] = [
      await createTestGuild(database.db, { features: ['members'] }),
      await createTestGuild(database.db, { features: ['invites'] }),
      await createTestGuild(database.db, { features: ['levels', 'bank'] }),
      await createTestGuild(database.db, { features: ['members', 'levels'] }),
    ];
    const b = bed({ concurrency: 1, requestsPerSecond: 2 });
    // 2,500 members: 3 pages, 1.5 s of a 2 requests/s budget before the next server may start.
    b.reconciler.sized(big.id, 2_500);
    b.reconciler.sized(mid.id, 1_000);
    b.reconciler.request([big, small, levelsOnly, mid].map((g) => ask(g.id)));

    await until(() => b.pushed.length === 1 && b.skipped.length === 1);
    expect(b.pushed).toEqual([big.id]);
    expect(b.skipped.map((s) => s.guildId)).toEqual([levelsOnly.id]);
    // One at a time: the next waits for the first to be done with.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(b.pushed).toEqual([big.id]);

    b.reconciler.finished();
    await until(() => b.pushed.length === 2);
    b.reconciler.finished();
    await until(() => b.pushed.length === 3);
    expect(b.pushed).toEqual([big.id, small.id, mid.id]);
    // The small server waited for the big one's 3 pages (1.5 s), the last for one page more (0.5 s).
    expect(b.waits).toHaveLength(2);
    expect(b.waits[0]).toBeGreaterThan(1_400);
    expect(b.waits[0]).toBeLessThanOrEqual(1_500);
    expect(b.waits[1]).toBeGreaterThan(1_900);
    expect(b.waits[1]).toBeLessThanOrEqual(2_000);
  });

  it('asks for a server once when a newer session asks again before its turn: the older request is passed over', async () => {
    const [first, second] = [await createTestGuild(database.db, { features: ['members'] }), await createTestGuild(database.db, { features: ['members'] })];
    const b = bed({ concurrency: 1, requestsPerSecond: 1_000 });
    b.reconciler.request([ask(first.id), ask(second.id)]);
    await until(() => b.pushed.length === 1);
    b.reconciler.request([ask(second.id, 'session-2')]);
    expect(b.skipped).toEqual([{ guildId: second.id, ref: 'session-1' }]);
    b.reconciler.finished();
    await until(() => b.pushed.length === 2);
    expect(b.pushed).toEqual([first.id, second.id]);
    b.reconciler.stop();
  });
});
