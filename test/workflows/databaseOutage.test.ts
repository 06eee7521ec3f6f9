import { expect, it } from 'vitest';
import { findLevelMember } from '../../db/levels/members.js';
import { findXpChange } from '../../db/levels/xpChanges.js';
import { requestXpChange } from '../../src/levels/requestXpChange.js';
import { readPolledStatus } from '../../src/core/temporal/polledStatus.js';
import { xpChangeOperation, xpChangeStatus } from '../../src/levels/xpChangeOperation.js';
import { ATTEMPTS_BEFORE_GIVING_UP } from '../../process/outageRetries.js';
import { addTestMember, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { useOutageTestBed, whileWritesRefused } from '../harness/outageWorker.js';

const { bed, taskQueue, outlastHour } = useOutageTestBed('database-outage');

async function acceptedChange() {
  const db = bed.db();
  const guild = await createTestGuild(db);
  const key = await createTestKey(db, guild);
  const userId = await addTestMember(db, guild);
  const change = await requestXpChange(db, {
    guildId: guild.id, userId, asker: { apiKeyId: key.id }, type: 'add', unit: 'xp', amount: 120, reason: null, createdAt: new Date(),
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
  // Each attempt knocks on the proxy once or more.
  const { outcome, closed, refused } = await outlastHour(() => start(change));
  expect(closed).toBe(false);
  expect(refused).toBeGreaterThan(3 * ATTEMPTS_BEFORE_GIVING_UP);

  expect(await outcome).toEqual({ status: 'done', result: { previousLevel: 0, level: 1, xp: 120 } });
  expect(await findXpChange(db, change.changeId)).toMatchObject({ status: 'done', error: null });
  expect(await findLevelMember(db, guild.id, userId)).toMatchObject({ xp: 120 });
});

it('a step failing for another reason than an outage gives up after its attempts, and the change reads failed', async () => {
  const db = bed.db();
  const { guild, userId, change } = await acceptedChange();
  // Every write of this member's XP fails the same way: a failure that no wait cures.
  await whileWritesRefused(db, 'level_members', 'xp writes refused', async () => {
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
  });
});
