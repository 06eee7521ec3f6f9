import { ChannelType, type APIChannel } from 'discord-api-types/v10';
import { discordError, type FakeAnswer } from './faults.js';
import type { FakeDiscordState, FakeGuild } from './state.js';

// The shape of the fake's REST routes and the answers they share (Discord's JSON error codes for what is unknown).
// The REST v10 endpoints the adapter uses are in guildRoutes, memberRoutes, messageRoutes and channelRoutes (and the
// interaction, member list and command routes); a later fake (gateway, OAuth2) adds its own with `FakeDiscord.route`.

export interface FakeRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown> | null;
  /** Lower-case names. */
  headers: Record<string, string>;
}

export type FakeHandler = (state: FakeDiscordState, req: FakeRequest) => FakeAnswer;

/** A route as Discord's docs write it, `/guilds/{guild.id}/members/{user.id}` spelled `/guilds/:guild/members/:user`. */
export interface FakeRoute {
  method: string;
  pattern: string;
  handler: FakeHandler;
}

export const json = (body: unknown, status = 200): FakeAnswer => ({ status, body });
export const noContent = (): FakeAnswer => ({ status: 204 });
export const unknown = {
  guild: () => discordError(404, 10004, 'Unknown Guild'),
  channel: () => discordError(404, 10003, 'Unknown Channel'),
  member: () => discordError(404, 10007, 'Unknown Member'),
  message: () => discordError(404, 10008, 'Unknown Message'),
  role: () => discordError(404, 10011, 'Unknown Role'),
  user: () => discordError(404, 10013, 'Unknown User'),
  ban: () => discordError(404, 10026, 'Unknown Ban'),
};

export const THREAD_TYPES: number[] = [ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread];

export function withGuild(handler: (state: FakeDiscordState, guild: FakeGuild, req: FakeRequest) => FakeAnswer): FakeHandler {
  return (state, req) => {
    const guild = state.guilds.get(req.params.guild!);
    return guild ? handler(state, guild, req) : unknown.guild();
  };
}

export function findChannel(state: FakeDiscordState, channelId: string): { guild?: FakeGuild; channel: APIChannel } | undefined {
  for (const guild of state.guilds.values()) {
    const channel = guild.channels.get(channelId);
    if (channel) return { guild, channel };
  }
  const dm = [...state.dmChannels.entries()].find(([, id]) => id === channelId);
  return dm ? { channel: { id: channelId, type: ChannelType.DM } as APIChannel } : undefined;
}
