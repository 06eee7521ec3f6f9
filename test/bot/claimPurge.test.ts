import { expect, it } from 'vitest';
import { createKeysActivities } from '../../activities/keys.js';
import { claimCountedMessages } from '../../db/levels/activityBatch.js';
import { claimInteraction } from '../../db/platform/interactions.js';
import { fixedClock } from '../../src/core/clock.js';
import { useTestDatabase } from '../harness/database.js';

const database = useTestDatabase();
const HOUR = 3_600_000;

it('the hourly purge forgets counted messages a week old and handled interactions a day old, nothing younger', async () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const guildId = '1300000000000000001';
  await claimCountedMessages(database.db, guildId, ['m-old'], ago(7 * 24 * HOUR + 1));
  await claimCountedMessages(database.db, guildId, ['m-week'], ago(7 * 24 * HOUR));
  await claimInteraction(database.db, 'i-old', guildId, ago(24 * HOUR + 1));
  await claimInteraction(database.db, 'i-day', guildId, ago(24 * HOUR));

  const activities = createKeysActivities({ db: database.db, clock: fixedClock(now) } as never);
  expect(await activities.purgeExpiredRecords()).toMatchObject({ countedMessages: 1, handledInteractions: 1 });

  const messages = await database.db.selectFrom('level_counted_messages').select('message_id').execute();
  expect(messages.map((m) => m.message_id)).toEqual(['m-week']);
  const interactions = await database.db.selectFrom('handled_interactions').select('interaction_id').execute();
  expect(interactions.map((i) => i.interaction_id)).toEqual(['i-day']);
  // A claim still kept refuses its message or interaction a second time.
  expect([...(await claimCountedMessages(database.db, guildId, ['m-week', 'm-old'], now))]).toEqual(['m-old']);
  expect(await claimInteraction(database.db, 'i-day', guildId, now)).toBe(false);
});
