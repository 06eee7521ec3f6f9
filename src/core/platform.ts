import type { RefusalCode } from './errorCodes.js';

/**
 * The chat platform as the service sees it. Adapters (local now, Discord later) translate to and from
 * these shapes; no vendor type crosses this interface.
 */
export interface PlatformGuild {
  id: string;
  name: string;
  icon: string | null;
  iconUrl: string | null;
  ownerId: string;
  botUserId: string;
  approximateMemberCount: number;
}

export interface PlatformRole {
  id: string;
  name: string;
  /** RGB as an integer; null or 0 means no colour. */
  color: number | null;
  position: number;
  managed: boolean;
  hoist: boolean;
  mentionable: boolean;
  permissions: bigint;
}

export const CHANNEL_TYPES = ['text', 'voice', 'category', 'announcement', 'stage', 'forum', 'media', 'thread', 'other'] as const;
export type PlatformChannelType = (typeof CHANNEL_TYPES)[number];

export interface PlatformChannel {
  id: string;
  name: string;
  type: PlatformChannelType;
  parentId: string | null;
  position: number;
}

export interface PlatformMember {
  userId: string;
  username: string;
  globalName: string | null;
  nickname: string | null;
  avatarUrl: string | null;
  bot: boolean;
  roleIds: string[];
  joinedAt: Date | null;
  /** Set while the member is timed out (may lie in the past: timeouts lapse on their own). */
  timedOutUntil: Date | null;
}

/** A button under a message: pressing it reaches the bot as an interaction carrying `id` (its custom_id). */
export interface PlatformButton {
  id: string;
  label: string;
}

/** One name and value of an embed (Discord's embed field). */
export interface PlatformEmbedField {
  name: string;
  value: string;
  /** Shown beside its neighbours rather than on a line of its own. */
  inline?: boolean;
}

/**
 * A card under a message's text (Discord's embed). Lengths are Discord's (title 256, description 4,096, footer
 * 2,048, 25 fields of 256 and 1,024, 6,000 in all): adapters fit a message within them (core/messageLimits.ts).
 * Mentions inside an embed show as names but never ping: a ping belongs in the content.
 */
export interface PlatformEmbed {
  title?: string;
  description?: string;
  /** RGB as an integer (0xD94CFF). */
  color?: number;
  thumbnailUrl?: string;
  imageUrl?: string;
  footer?: string;
  /** Shown under the card in each reader's own time zone. */
  timestamp?: Date;
  fields?: PlatformEmbedField[];
}

/**
 * Exactly who a message may ping: these users and roles, and @everyone/@here only with `everyone`. A mention in
 * the text of anyone else shows without a ping.
 */
export interface MessageMentions {
  userIds: string[];
  roleIds: string[];
  everyone?: boolean;
}

export interface MessageOptions {
  /**
   * Buttons under the message, in rows of five (at most 25: src/core/buttonLimits.ts); on an edit, [] takes them away
   * and undefined leaves them as they are. Discord shows buttons only on messages the bot itself posts.
   */
  buttons?: PlatformButton[];
  /** Embeds under the text (at most 10); on an edit, [] takes them away and undefined leaves them as they are. */
  embeds?: PlatformEmbed[];
  /** Who may be pinged; without it, the users the content mentions (`<@id>`), no role and never @everyone. */
  mentions?: MessageMentions;
}

/** A message as a sender composes it: its text and what goes with it, passed whole as the options. */
export interface ComposedMessage extends MessageOptions {
  content: string;
}

/** An invite link of the server with how often it was used: what invite attribution compares. */
export interface PlatformInvite {
  code: string;
  /** Null for invites without one (the server's vanity URL, some integrations). */
  inviterId: string | null;
  channelId: string | null;
  uses: number;
  /** 0 = unlimited. */
  maxUses: number;
}

export type DirectMessageStatus = 'sent' | 'failed';

/** A ticket's own text channel: seen by the opener, the staff roles and the bot, hidden from everyone else. */
export interface TicketChannelRequest {
  name: string;
  /** The category it goes under; none, at the top of the channel list. */
  parentId?: string | null;
  openerId: string;
  staffRoleIds?: string[];
}

/** `fresh`: the platform as it is now, past every cache an adapter keeps (a permission check before a write). */
export interface ReadOptions {
  fresh?: boolean;
}

export interface Platform {
  /** Undefined when the bot is not in that server. */
  getGuild(guildId: string, options?: ReadOptions): Promise<PlatformGuild | undefined>;
  /** Every role including the everyone role (whose id equals the guild id). */
  listRoles(guildId: string, options?: ReadOptions): Promise<PlatformRole[]>;
  /** Every channel including threads, in no particular order. */
  listChannels(guildId: string): Promise<PlatformChannel[]>;
  /** Undefined when the user is not a member. */
  getMember(guildId: string, userId: string, options?: ReadOptions): Promise<PlatformMember | undefined>;
  /**
   * Members whose name starts with `prefix` (either case), at most `limit` (1 to 1,000): the local tables match the
   * username, global name or nickname; Discord its own search (username or nickname, needs the Server Members intent).
   */
  searchMembers(guildId: string, prefix: string, limit: number): Promise<PlatformMember[]>;
  /**
   * Posts a message (text, embeds, buttons; content may be empty when embeds carry it). The idempotency key makes a retried call a no-op that returns the first
   * message's id, so an activity retried after a lost answer never posts twice.
   */
  postMessage(guildId: string, channelId: string, content: string, idempotencyKey: string, options?: MessageOptions): Promise<string>;
  /**
   * Replaces the content (and the embeds or buttons the options give) of a message the bot posted. Editing is
   * idempotent by nature (the same content twice is one edit); false when the message or its channel is gone, so the
   * caller can post anew or record the effect as failed.
   */
  editMessage(guildId: string, channelId: string, messageId: string, content: string, options?: MessageOptions): Promise<boolean>;
  /** Gives or takes a role; doing what is already done is a no-op. Returns whether the member changed. */
  changeRole(guildId: string, userId: string, roleId: string, action: 'add' | 'remove', reason: string | null): Promise<boolean>;

  // Moderation. Each returns whether it changed anything: repeating an effect already in place is a no-op,
  // so an activity retried after a lost answer applies it once.
  /** The ban on the user, undefined when there is none. */
  getBan(guildId: string, userId: string): Promise<{ reason: string | null } | undefined>;
  ban(guildId: string, userId: string, reason: string | null, deleteMessageSeconds: number): Promise<boolean>;
  unban(guildId: string, userId: string, reason: string | null): Promise<boolean>;
  kick(guildId: string, userId: string, reason: string | null): Promise<boolean>;
  /** Times the member out until `until`; null lifts the timeout. */
  timeout(guildId: string, userId: string, until: Date | null, reason: string | null): Promise<boolean>;
  /**
   * A DM from the bot (with the embeds, buttons and mentions the options give), sent once per idempotency key; 'failed'
   * when the user does not accept it.
   */
  sendDirectMessage(guildId: string, userId: string, content: string, idempotencyKey: string, options?: MessageOptions): Promise<DirectMessageStatus>;
  /** The server's invites with their use counts (on Discord the bot needs Manage Server). */
  listInvites(guildId: string): Promise<PlatformInvite[]>;
  /** An invite link to the channel, created once per idempotency key. */
  createInvite(guildId: string, channelId: string, maxUses: number, idempotencyKey: string): Promise<string>;
  /**
   * Creates a ticket's channel and returns its id. The idempotency key makes a retried call return the first
   * channel instead of making a second one.
   */
  createTicketChannel(guildId: string, request: TicketChannelRequest, idempotencyKey: string): Promise<string>;
  /**
   * Closes a ticket's place on the platform: deletes its channel, or archives and locks its thread when
   * `thread` is true. Closing one already closed (or gone) is a no-op; returns whether this call closed it.
   */
  closeTicketChannel(guildId: string, channelId: string, options: { thread: boolean }, idempotencyKey: string): Promise<boolean>;
}

/** The platform did not answer; callers degrade (for example memberCount null) or answer 503. */
export class PlatformUnavailableError extends Error {
  constructor(
    message = 'The chat platform is unreachable.',
    /** When the platform told how long to stay away (a rate-limit stop): the API's Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'PlatformUnavailableError';
  }
}

/**
 * The platform refused the effect for a reason a retry cannot change (the bot lacks a permission, the
 * request is one it will never accept): the step fails with this code, never retried.
 */
export class PlatformRefusedError extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'PlatformRefusedError';
  }
}

/**
 * The platform refused the service's own credentials: nothing will work until an operator fixes the
 * configuration, so no step retries it. To a reader (the api) the platform is as good as unreachable.
 */
export class PlatformConfigurationError extends PlatformUnavailableError {
  readonly code = 'PLATFORM_UNAUTHORIZED';
  constructor(message: string) {
    super(message);
    this.name = 'PlatformConfigurationError';
  }
}
