import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { findLevelMember } from '../../db/levels/members.js';
import { findXpChange } from '../../db/levels/xpChanges.js';
import { requestXpChange } from '../../src/levels/requestXpChange.js';
import { readPolledStatus } from '../../src/core/temporal/polledStatus.js';
import { xpChangeOperation, xpChangeStatus } from '../../src/levels/xpChangeOperation.js';
import { ATTEMPTS_BEFORE_GIVING_UP } from '../../process/outageRetries.js';
import { addTestMember, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { useOutageWorker } from '../harness/outageWorker.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

// The production worker (createWorker) reaches the database through a proxy that can take it away; the
// time-skipping server fires the backoff timers of an hour's retries at once.
const bed = useTimeSkippingTestBed({ taskQueue: 'database-outage-bed' });
const taskQueue = 'database-outage-test';
const outage = useOutageWorker(bed, taskQueue);

const HOUR_MS = 3_600_000;

async function acceptedChange() {
  const db = bed.db();
  const guild = await createTestGuild(db);
  const key = await createTestKey(db, guild);
  const userId = await addTestMember(db, guild);
  const change = await requestXpChange(db, {
    guildId: guild.id, userId, apiKeyId: key.id, type: 'add', unit: 'xp', amount: 120, reason: null, createdAt: new Date(),
  });
  return { guild, userId, change };
}

const start = (change: Awaited<ReturnType<typeof acceptedChange>>['change']) =>
  bed.client.workflow.start(xpChangeOperation.workflow.name, {
    taskQueue,
    workflowId: xpChangeOperation.workflowId(change),
    args: xpChangeOperation.args(change),
  });

it('an accepted XP change outlasts an hour without its database and is applied once when it is back', async () => {
  const db = bed.db();
  const { guild, userId, change } = await acceptedChange();
  outage.proxy.setDown(true);
  const startedAt = await bed.env.currentTimeMs();
  const handle = await start(change);
  // Awaiting the result lets the server skip time; each attempt knocks on the proxy once or more.
  const outcome = handle.result();
  outcome.catch(() => {});
  const state = await outage.hold(handle, startedAt, HOUR_MS);
  expect(state.closed).toBe(false);
  expect(state.refused).toBeGreaterThan(3 * ATTEMPTS_BEFORE_GIVING_UP);
  outage.proxy.setDown(false);

  expect(await outcome).toEqual({ status: 'done', result: { previousLevel: 0, level: 1, xp: 120 } });
  expect(await findXpChange(db, change.changeId)).toMatchObject({ status: 'done', error: null });
  expect(await findLevelMember(db, guild.id, userId)).toMatchObject({ xp: 120 });
});

it('a step failing for another reason than an outage gives up after its attempts, and the change reads failed', async () => {
  const db = bed.db();
  const { guild, userId, change } = await acceptedChange();
  // Every write of this member's XP fails the same way: a failure that no wait cures.
  await sql.raw(`
    create function refuse_xp() returns trigger language plpgsql as $$ begin raise exception 'xp writes refused'; end $$;
    create trigger refuse_xp before insert or update on level_members for each row execute function refuse_xp();`).execute(db);
  try {
    const handle = await start(change);
    // The change's one step (patch xp-change-one-step) gave up: the run records the change failed and completes.
    expect(await handle.result()).toEqual({ status: 'failed', error: 'INTERNAL_ERROR' });
    const { events } = await handle.fetchHistory();
    // The step's markers: its attempts past the local retry threshold, the last one the give-up.
    const failures = events?.map((e) => e.markerRecordedEventAttributes?.failure).filter((f) => f) ?? [];
    expect(failures.at(-1)).toMatchObject({
      applicationFailureInfo: { type: 'INTERNAL_ERROR', nonRetryable: true },
      message: expect.stringMatching(new RegExp(`^gave up after ${ATTEMPTS_BEFORE_GIVING_UP} attempts: .*xp writes refused`)),
    });
    const record = (await findXpChange(db, change.changeId))!;
    expect(record).toMatchObject({ status: 'failed', error: 'INTERNAL_ERROR' });
    expect(await readPolledStatus({ client: bed.client, taskQueue }, xpChangeStatus, record)).toEqual({ status: 'failed', result: null, error: 'INTERNAL_ERROR' });
    expect(await findLevelMember(db, guild.id, userId)).toBeUndefined();
  } finally {
    await sql.raw('drop trigger refuse_xp on level_members; drop function refuse_xp();').execute(db);
  }
});
