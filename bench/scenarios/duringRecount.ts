import { sql, type RawBuilder } from 'kysely';
import type { Recount } from '../../db/shared/rankRecount.js';
import { FIRST_MEMBER_ID } from '../seed.js';

/**
 * Runs `loads` while a rank snapshot is recounted as its schedule does, and logs how long the recount took, what it
 * wrote, and whether it outlasted the loads (if not, the figures mix both states).
 */
export async function duringRecount(
  recount: () => Promise<Recount>,
  what: string,
  log: (line: string) => void,
  loads: () => Promise<void>,
): Promise<void> {
  const started = performance.now();
  let recountedAfterMs: number | undefined;
  const running = recount().then((outcome) => {
    recountedAfterMs = Math.round(performance.now() - started);
    return outcome;
  });
  await loads();
  const overlapped = recountedAfterMs === undefined;
  const { written } = await running;
  log(`${what}: ${recountedAfterMs} ms, ${written.toLocaleString('en-US')} rows written` +
    (overlapped ? ' (the loads ran while it did)' : ' (it ended before the loads did: the figures mix both states)'));
}

/** User ids of `count` members drawn at random from the first `population` seeded ones (a subquery). */
export const randomSeededMembers = (count: number, population: number): RawBuilder<unknown> =>
  sql`SELECT (${sql.lit(FIRST_MEMBER_ID.toString())}::numeric + floor(random() * ${population})::bigint)::text FROM generate_series(1, ${count})`;
