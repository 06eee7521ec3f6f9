import { expect, it } from 'vitest';
import { createKeysActivities } from '../../activities/keys.js';
import { insertPendingSignIn, insertSession } from '../../db/console/sessions.js';
import { fixedClock } from '../../src/core/clock.js';
import { hashToken } from '../../src/console/tokens.js';
import { useTestDatabase } from '../harness/database.js';

const database = useTestDatabase();

it('the hourly purge deletes console sessions past their absolute expiry and sign-ins abandoned an hour ago, nothing else', async () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
  const session = (expiresAt: Date) => ({ userId: '1200000000000000001', userName: 'u', guildIds: null, createdAt: at(-720), lastSeenAt: at(-30), expiresAt });
  await insertSession(database.db, hashToken('ended'), session(at(0)));
  await insertSession(database.db, hashToken('live'), session(at(1)));
  await insertPendingSignIn(database.db, hashToken('old'), { codeVerifier: 'v1', browserHash: hashToken('b1'), createdAt: at(-60) });
  await insertPendingSignIn(database.db, hashToken('new'), { codeVerifier: 'v2', browserHash: hashToken('b2'), createdAt: at(-59) });
  const activities = createKeysActivities({ db: database.db, clock: fixedClock(now) } as never);
  expect(await activities.purgeExpiredRecords()).toMatchObject({ consoleSessions: 1 });
  const sessions = await database.db.selectFrom('console_sessions').select('token_hash').execute();
  expect(sessions.map((s) => s.token_hash.equals(hashToken('live')))).toEqual([true]);
  const signIns = await database.db.selectFrom('console_sign_ins').select('state_hash').execute();
  expect(signIns.map((s) => s.state_hash.equals(hashToken('new')))).toEqual([true]);
});
