import { describe, expect, it } from 'vitest';
import { addCaseEvent, insertCase, resolveCase } from '../../../db/moderation/cases.js';
import { snowflake } from '../../harness/fixtures.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createModerationGuild } from '../../harness/moderationGuild.js';
import { issuesAt, moderationRequests } from '../../harness/moderationRequests.js';

// GET moderation case: the case with its timeline.
const START = new Date('2026-11-22T12:00:20Z');
const { db, app } = useApiTestBed({ now: START, temporal: true });

const { get, seedCases } = moderationRequests(db, app);

describe('GET moderation case', () => {
  it('gives the case with its timeline, oldest first', async () => {
    const g = await createModerationGuild(db());
    const userId = snowflake();
    const createdAt = new Date('2026-11-21T08:00:00Z');
    const { number } = await insertCase(db(), {
      guildId: g.id,
      action: 'warn',
      userId,
      userTag: null,
      moderatorId: g.moderatorId,
      reason: 'spam',
      durationSeconds: null,
      evidence: [],
      source: 'api',
      active: true,
      expiresAt: null,
      dmStatus: 'sent',
      apiKey: { id: g.keyId, name: 'mod key' },
      operationId: null,
      createdAt,
    });
    await addCaseEvent(db(), { guildId: g.id, caseNumber: number, type: 'dm', actorId: null, data: { status: 'sent' }, at: new Date('2026-11-21T08:00:01Z') });
    const resolvedAt = new Date('2026-11-21T09:00:00Z');
    expect(await resolveCase(db(), { guildId: g.id, caseNumber: number, how: 'revoked', actorId: g.moderatorId, data: { byCase: 7 }, at: resolvedAt })).toBe(
      true,
    );

    const res = await get(g, `/cases/${number}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      number,
      action: 'warn',
      userId,
      userTag: null,
      moderatorId: g.moderatorId,
      reason: 'spam',
      durationSeconds: null,
      evidence: [],
      source: 'api',
      active: false,
      expiresAt: null,
      resolvedAt: resolvedAt.toISOString(),
      dmStatus: 'sent',
      apiKey: { id: g.keyId, name: 'mod key' },
      createdAt: createdAt.toISOString(),
      events: [
        { type: 'created', actorId: g.moderatorId, data: {}, createdAt: createdAt.toISOString() },
        { type: 'dm', actorId: null, data: { status: 'sent' }, createdAt: '2026-11-21T08:00:01.000Z' },
        { type: 'revoked', actorId: g.moderatorId, data: { byCase: 7 }, createdAt: resolvedAt.toISOString() },
      ],
    });
  });

  it('unknown, deleted or another server’s case → 404 CASE_NOT_FOUND', async () => {
    const g = await createModerationGuild(db());
    const other = await createModerationGuild(db());
    const [kept, deleted] = await seedCases(g.id, [
      { action: 'warn', userId: snowflake(), moderatorId: g.moderatorId, source: 'api', active: true },
      { action: 'kick', userId: snowflake(), moderatorId: g.moderatorId, source: 'api', active: false, deleted: true },
    ]);
    await seedCases(other.id, Array.from({ length: 3 }, () => ({ action: 'warn' as const, userId: snowflake(), moderatorId: other.moderatorId, source: 'api' as const, active: true })));
    expect((await get(g, `/cases/${kept!.number}`)).status).toBe(200);
    for (const number of [deleted!.number, 3, 999_999_999]) {
      const res = await get(g, `/cases/${number}`);
      expect(res.status, String(number)).toBe(404);
      expect(res.body).toEqual({ error: 'CASE_NOT_FOUND', message: expect.any(String) });
    }
  });

  it.each(['0', '-1', 'abc', '1.5', '1000000000'])('malformed number %s → 400 INVALID_REQUEST in the path', async (number) => {
    const g = await createModerationGuild(db());
    const res = await get(g, `/cases/${number}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('path', 'number') });
  });
});
