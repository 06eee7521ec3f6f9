import { describe, expect, it } from 'vitest';
import { setPlatformReachable } from '../../db/platform/local.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { useTestDatabase } from '../harness/database.js';
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
      { id: Number(messageId), content: 'second', idempotency_key: expect.any(String), created_at: expect.any(Date), edited_at: expect.any(Date) },
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
