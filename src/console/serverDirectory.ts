import type { Platform, PlatformChannelType } from '../core/platform.js';
import { readChannels, readRoles } from '../guild/readGuild.js';

/** A role a form may offer: `managed` ones (a bot's, a booster's) cannot be given or taken by anyone. */
export interface DirectoryRole {
  id: string;
  name: string;
  managed: boolean;
}

export interface DirectoryChannel {
  id: string;
  name: string;
  /** Threads are never listed. */
  type: Exclude<PlatformChannelType, 'thread'>;
}

/** The server's roles and channels as its pickers offer them: names instead of ids, in the order Discord shows them. */
export interface ServerDirectory {
  roles: DirectoryRole[];
  channels: DirectoryChannel[];
}

/**
 * What the dashboard's pickers list, read through the same readers as the API's `/roles` and `/channels`: roles
 * highest first without the everyone role, channels in sidebar order. The platform out is the page's 503.
 */
export async function readServerDirectory(platform: Platform, guildId: string): Promise<ServerDirectory> {
  const [roles, channels] = await Promise.all([readRoles(platform, guildId), readChannels(platform, guildId)]);
  return {
    roles: roles.items.map((r) => ({ id: r.id, name: r.name, managed: r.managed })),
    channels: channels.items.map((c) => ({ id: c.id, name: c.name, type: c.type })),
  };
}
