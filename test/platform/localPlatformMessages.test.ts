import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { setPlatformReachable } from '../../db/platform/local.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { createTestGuild, snowflake } from '../harness/fixtures.js';

const database = useTestDatabase();

async function posted() {
  const guild = await createTestGuild(database.db);
  const channelId = snowflake();
  const platform = createLocalPlatform(database.db);
  const messageId = await platform.postMessage(guild.id, channelId, 'first', `test/${snowflake()}`);
  return { guildId: guild.id, channelId, platform, messageId };
}

describe('local platform: editMessage', () => {
  it('replaces the content and records the edit time; the same edit again is still true', async () => {
    const { guildId, channelId, platform, messageId } = await posted();
    expect(await platform.editMessage(guildId, channelId, messageId, 'second')).toBe(true);
    expect(await platform.editMessage(guildId, channelId, messageId, 'second')).toBe(true);
    expect(await listPlatformMessages(database.db, guildId, channelId)).toEqual([
      { id: Number(messageId), content: 'second', idempotency_key: expect.any(String), created_at: expect.any(Date), edited_at: expect.any(Date), buttons: null },
    ]);
  });

  it.each([
    ['another channel', (m: Awaited<ReturnType<typeof posted>>) => [m.guildId, snowflake(), m.messageId]],
    ['another guild', (m: Awaited<ReturnType<typeof posted>>) => [snowflake(), m.channelId, m.messageId]],
    ['an unknown id', (m: Awaited<ReturnType<typeof posted>>) => [m.guildId, m.channelId, String(Number(m.messageId) + 1000)]],
    ['an id that is not a message id', (m: Awaited<ReturnType<typeof posted>>) => [m.guildId, m.channelId, snowflake()]],
  ])('false for %s, and the message is unchanged', async (_, where) => {
    const m = await posted();
    const [guildId, channelId, messageId] = where(m) as [string, string, string];
    expect(await m.platform.editMessage(guildId, channelId, messageId, 'changed')).toBe(false);
    expect(await listPlatformMessages(database.db, m.guildId, m.channelId)).toMatchObject([{ content: 'first', edited_at: null }]);
  });

  it('false for a deleted message', async () => {
    const { guildId, channelId, platform, messageId } = await posted();
    await database.db.deleteFrom('platform_messages').where('id', '=', Number(messageId)).execute();
    expect(await platform.editMessage(guildId, channelId, messageId, 'changed')).toBe(false);
  });

  it('an unreachable platform throws PlatformUnavailableError and edits nothing', async () => {
    const { guildId, channelId, platform, messageId } = await posted();
    await setPlatformReachable(database.db, guildId, false);
    await expect(platform.editMessage(guildId, channelId, messageId, 'changed')).rejects.toBeInstanceOf(PlatformUnavailableError);
    expect(await listPlatformMessages(database.db, guildId, channelId)).toMatchObject([{ content: 'first', edited_at: null }]);
  });
});

describe('local platform: postMessage', () => {
  it('posts once per idempotency key: the same key again answers the first message and adds none', async () => {
    const { guildId, channelId, platform, messageId } = await posted();
    const [key] = (await listPlatformMessages(database.db, guildId, channelId)).map((m) => m.idempotency_key);
    expect(await platform.postMessage(guildId, channelId, 'again', key!)).toBe(messageId);
    expect(await listPlatformMessages(database.db, guildId, channelId)).toMatchObject([{ id: Number(messageId), content: 'first' }]);
  });

  it('posts in a guild the platform has no row for (reachable unless marked otherwise)', async () => {
    const guildId = snowflake();
    const channelId = snowflake();
    const id = await createLocalPlatform(database.db).postMessage(guildId, channelId, 'hello', `test/${snowflake()}`);
    expect(await listPlatformMessages(database.db, guildId, channelId)).toMatchObject([{ id: Number(id), content: 'hello' }]);
  });

  it('an unreachable platform throws PlatformUnavailableError and posts nothing', async () => {
    const { guildId, channelId, platform } = await posted();
    await setPlatformReachable(database.db, guildId, false);
    await expect(platform.postMessage(guildId, channelId, 'lost', `test/${snowflake()}`)).rejects.toBeInstanceOf(PlatformUnavailableError);
    expect(await listPlatformMessages(database.db, guildId, channelId)).toMatchObject([{ content: 'first' }]);
  });

  it('a key posted by a transaction that commits while this post waits on it: the committed message, posted once', async () => {
    const { guildId, channelId, platform } = await posted();
    const key = `test/${snowflake()}`;
    let committed!: () => void;
    const inFlight = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('platform_messages').values({ guild_id: guildId, channel_id: channelId, content: 'racing', idempotency_key: key }).execute();
      await new Promise<void>((resolve) => (committed = resolve));
    });
    // Waits on the uncommitted row of the same key, then finds it committed (not in its statement's snapshot).
    const post = platform.postMessage(guildId, channelId, 'second', key);
    await eventually(() => waitingOnLock(), (n) => n > 0);
    committed();
    await inFlight;
    const id = await post;
    expect(await listPlatformMessages(database.db, guildId, channelId)).toMatchObject([{ content: 'first' }, { id: Number(id), content: 'racing' }]);
  });
});

/** Sessions of this database waiting for a row lock (the post behind the uncommitted insert). */
async function waitingOnLock(): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(database.db);
  return Number(rows[0]!.n);
}
