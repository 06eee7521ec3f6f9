import { PanelRefusal } from './panelRefusal.js';
import { PlatformRefusedError, type Platform, type PlatformButton } from './platform.js';

// A panel is a message the service posts once and then keeps up to date in place: Discord shows buttons only on the
// application's own messages, so the service, not staff, posts every message with a button on it.

/** Discord's limit on a message's content (https://docs.discord.com/developers/resources/message#create-message). */
export const MAX_CONTENT = 2000;

export interface PostedPanel {
  channelId: string;
  messageId: string;
}

export interface PanelPlacement {
  guildId: string;
  /** Where the panel belongs now. */
  channelId: string;
  /** Where it was posted last time, if ever. */
  previous: PostedPanel | null;
  /** How many times it was posted so far. */
  posts: number;
  /** The idempotency key of its n-th post: a retried post is one message, a repost after a deletion another. */
  keyOf(post: number): string;
  content: string;
  buttons: PlatformButton[];
}

/** `posted`: a first post; `edited`: in place; `reposted`: its message was deleted; `moved`: posted in its new channel. */
export type PanelOutcome = 'posted' | 'edited' | 'reposted' | 'moved';

export interface PlacedPanel {
  message: PostedPanel;
  posts: number;
  outcome: PanelOutcome;
}

/**
 * Edits the panel's message in place when it is still where the panel belongs; posts it when it never was, was
 * deleted (Discord's 10008 Unknown Message, or its channel gone) or belongs in another channel now. The message left
 * behind in the old channel loses its buttons and points to the new one.
 */
export async function placePanelMessage(platform: Platform, p: PanelPlacement): Promise<PlacedPanel> {
  const options = { buttons: p.buttons };
  if (p.previous?.channelId === p.channelId && (await platform.editMessage(p.guildId, p.channelId, p.previous.messageId, p.content, options))) {
    return { message: p.previous, posts: p.posts, outcome: 'edited' };
  }
  const posts = p.posts + 1;
  const messageId = await platform.postMessage(p.guildId, p.channelId, p.content, p.keyOf(posts), options);
  if (p.previous && p.previous.channelId !== p.channelId) {
    await retireOldMessage(platform, p.guildId, p.previous, p.channelId);
    return { message: { channelId: p.channelId, messageId }, posts, outcome: 'moved' };
  }
  return { message: { channelId: p.channelId, messageId }, posts, outcome: p.previous ? 'reposted' : 'posted' };
}

/** The old message without its buttons; one the bot may no longer edit, or already gone, is left as it is. */
async function retireOldMessage(platform: Platform, guildId: string, old: PostedPanel, channelId: string): Promise<void> {
  try {
    await platform.editMessage(guildId, old.channelId, old.messageId, `This panel moved to <#${channelId}>.`, { buttons: [] });
  } catch (err) {
    if (!(err instanceof PlatformRefusedError)) throw err;
  }
}

const POSTABLE = new Set(['text', 'announcement']);

/**
 * The panel's channel is a text or announcement channel of the server, its category (if any) a category, its roles
 * the server's (never the everyone role, which would show tickets to all): refused in words before anything is posted.
 */
export async function checkPanelPlace(platform: Platform, guildId: string, place: { channelId: string; categoryId?: string | null; roleIds?: string[] }): Promise<void> {
  const channels = await platform.listChannels(guildId);
  const channel = channels.find((c) => c.id === place.channelId);
  if (!channel) throw new PanelRefusal('UNKNOWN_CHANNEL', `Channel ${place.channelId} is not a channel of server ${guildId}.`);
  if (!POSTABLE.has(channel.type)) throw new PanelRefusal('UNKNOWN_CHANNEL', `Channel ${place.channelId} is a ${channel.type} channel; a panel goes in a text or announcement channel.`);
  if (place.categoryId) {
    const category = channels.find((c) => c.id === place.categoryId);
    if (category?.type !== 'category') throw new PanelRefusal('UNKNOWN_CATEGORY', `${place.categoryId} is not a category of server ${guildId}.`);
  }
  if (place.roleIds?.length) {
    const roles = new Set((await platform.listRoles(guildId)).map((r) => r.id));
    const unknown = place.roleIds.find((id) => id === guildId || !roles.has(id));
    if (unknown === guildId) throw new PanelRefusal('UNKNOWN_ROLE', 'The everyone role cannot be a staff role: every member would see every ticket.');
    if (unknown) throw new PanelRefusal('UNKNOWN_ROLE', `Role ${unknown} is not a role of server ${guildId}.`);
  }
}
