import { snowflake } from '../harness/fixtures.js';

/** A MESSAGE_CREATE payload as Discord sends it for a member's message in a server, written at `at`. */
export const memberMessage = (guildId: string, authorId: string, at: Date, extra: Record<string, unknown> = {}, author: Record<string, unknown> = {}) => ({
  id: snowflake(),
  channel_id: snowflake(),
  guild_id: guildId,
  author: { id: authorId, username: 'zoe', discriminator: '0', global_name: null, avatar: null, ...author },
  content: 'hello',
  timestamp: at.toISOString(),
  edited_timestamp: null,
  tts: false,
  mention_everyone: false,
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  pinned: false,
  type: 0,
  ...extra,
});
