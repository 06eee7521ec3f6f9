import { describe, expect, it } from 'vitest';
import { addAppealMessage, type AppealAnswer } from '../../../db/appeals/appeals.js';
import { snowflake } from '../../harness/fixtures.js';
import { appealRequests } from '../../harness/appeals.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';

// GET appeal: the appeal with its conversation; staff notes stay internal.
const NOW = new Date('2026-11-22T12:00:00.000Z');

const { db, app } = useApiTestBed({ now: NOW, temporal: true });

const { setup, seedAppeal, seedMany, getAppeal } = appealRequests(db, app, NOW);

describe('GET /appeals/{number}', () => {
  it('answers the AppealDetail with answers and the conversation, never internal staff notes', async () => {
    const { guild, key } = await setup();
    const userId = snowflake();
    const staffId = snowflake();
    const at = new Date('2026-11-21T10:00:00.000Z');
    const minute = (n: number) => new Date(at.getTime() + n * 60_000);
    const answers: AppealAnswer[] = [
      { id: 'why', type: 'paragraph', label: 'Why should we unban you?', value: 'I changed.' },
      { id: 'age', type: 'number', label: 'Account age (days)', value: 400 },
      { id: 'rules', type: 'checkbox', label: 'I read the rules', value: true },
      { id: 'links', type: 'list', label: 'Links', value: ['https://example.com/a'] },
    ];
    const { number } = await seedAppeal(guild, { userId, userTag: 'appellant', banCaseNumber: 4, banReason: 'spam links', answers, at });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'Please unban me.', at: minute(1) });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'staff', authorId: staffId, text: 'Why the links?', at: minute(2) });
    await addAppealMessage(db(), {
      guildId: guild.id,
      number,
      author: 'staff',
      authorId: staffId,
      text: 'INTERNAL: banned twice before',
      internal: true,
      at: minute(3),
    });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'It was a bot.', at: minute(4) });
    await db()
      .updateTable('appeals')
      .set({ status: 'question', claimed_by: staffId, last_activity_at: minute(4) })
      .where('guild_id', '=', guild.id)
      .where('number', '=', number)
      .execute();

    const res = await getAppeal(guild, key, number);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      number,
      userId,
      userTag: 'appellant',
      status: 'question',
      banCaseNumber: 4,
      claimedBy: staffId,
      decidedBy: null,
      decidedAt: null,
      reason: null,
      createdAt: at.toISOString(),
      lastActivityAt: minute(4).toISOString(),
      banReason: 'spam links',
      answers,
      messages: [
        { author: 'user', authorId: userId, text: 'Please unban me.', createdAt: minute(1).toISOString() },
        { author: 'staff', authorId: staffId, text: 'Why the links?', createdAt: minute(2).toISOString() },
        { author: 'user', authorId: userId, text: 'It was a bot.', createdAt: minute(4).toISOString() },
      ],
      applying: false,
      failedAction: null,
    });
    expect(res.text).not.toContain('INTERNAL');
  });

  it('answers 404 APPEAL_NOT_FOUND for an unknown number and for another server’s appeal', async () => {
    const { guild, key } = await setup();
    await seedAppeal(guild);
    const other = await setup();
    await seedMany(other.guild, ['open', 'open', 'open']);
    for (const number of [2, 3, 999_999_999]) {
      const res = await getAppeal(guild, key, number);
      expect(res.status, String(number)).toBe(404);
      expect(res.body).toEqual({ error: 'APPEAL_NOT_FOUND', message: expect.any(String) });
    }
    expect((await getAppeal(guild, key, 1)).status).toBe(200);
  });

  it.each(['abc', '0', '-1', '1.5', '1000000000'])('answers 400 INVALID_REQUEST for the number %s', async (number) => {
    const { guild, key } = await setup();
    await seedAppeal(guild);
    const res = await getAppeal(guild, key, number);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: [{ location: 'path', path: 'number', message: expect.any(String) }],
    });
  });
});
