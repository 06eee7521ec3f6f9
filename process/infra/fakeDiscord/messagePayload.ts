// MESSAGE_CREATE as Discord sends it for a member's message in a server: what the bot tests and the gateway benches
// dispatch through the fake gateway.

export interface MemberMessage {
  id: string;
  channelId: string;
  guildId: string;
  /** The author's user object: id and username, and any field that differs from a plain account's. */
  author: { id: string; username: string } & Record<string, unknown>;
  /** When it was written (`timestamp`). */
  at: Date;
}

/** The MESSAGE_CREATE payload of a member's text message `hello`. */
export const memberMessagePayload = (m: MemberMessage) => ({
  id: m.id,
  channel_id: m.channelId,
  guild_id: m.guildId,
  author: { discriminator: '0', global_name: null, avatar: null, ...m.author },
  content: 'hello',
  timestamp: m.at.toISOString(),
  edited_timestamp: null,
  tts: false,
  mention_everyone: false,
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  pinned: false,
  type: 0,
});
