import type { LevelSettings } from '../../db/levels/members.js';
import type { Platform } from '../core/platform.js';
import { Refusal } from '../core/refusal.js';

/**
 * What members earn and what earns nothing, the limits the console and the CLI share (docs/console.md, Levels):
 * XP per message and per voice minute 0 to 1,000 (0: that activity earns nothing; the default 20 and 10), the message
 * cooldown 0 to 3,600 seconds (an hour; the default 60), at most 50 no-XP channels and 25 no-XP roles (they are read
 * with every message batch: a short list keeps that read cheap), at most 25 reward roles at levels 1 to 500.
 */
export const LEVEL_LIMITS = {
  xpPerMessage: { min: 0, max: 1_000 },
  xpPerVoiceMinute: { min: 0, max: 1_000 },
  messageCooldownSeconds: { min: 0, max: 3_600 },
  noXpChannels: 50,
  noXpRoles: 25,
  rewards: 25,
  rewardLevel: { min: 1, max: 500 },
} as const;

export type LevelRefusalCode =
  | 'INVALID_TEMPLATE'
  | 'INVALID_CHANNEL'
  | 'ANNOUNCE_CHANNEL_REQUIRED'
  | 'INVALID_RATE'
  | 'INVALID_ROLE'
  | 'TOO_MANY_CHANNELS'
  | 'TOO_MANY_ROLES'
  | 'INVALID_LEVEL'
  | 'TOO_MANY_REWARDS'
  | 'REWARD_EXISTS'
  | 'REWARD_NOT_FOUND';

/** The setting a refusal concerns, so a form shows it on its field. */
export type LevelSettingName = keyof LevelSettings | 'rewardLevel' | 'rewardRole';

export class LevelSettingsRefusal extends Refusal<LevelRefusalCode> {
  constructor(
    code: LevelRefusalCode,
    message: string,
    readonly setting: LevelSettingName,
  ) {
    super(code, message);
  }
}

const RATES = ['xpPerMessage', 'xpPerVoiceMinute', 'messageCooldownSeconds'] as const;
const RATE_TEXT = { xpPerMessage: 'XP per message', xpPerVoiceMinute: 'XP per voice minute', messageCooldownSeconds: 'The message cooldown (seconds)' };

/** Channels a member writes messages in (a thread's messages carry the thread's own id). */
export const MESSAGE_CHANNELS = new Set(['text', 'announcement', 'voice', 'stage', 'forum', 'media']);

const added = (after: string[], before: string[]) => after.filter((id) => !before.includes(id));

/**
 * The rates within their bounds; the no-XP lists within theirs, each id new to a list a channel members write in or
 * a role of the server (one listed before and since deleted stays until taken off, and blocks no other edit; the
 * platform is read only when a list grows).
 */
export async function checkXpRules(platform: Platform, guildId: string, c: Partial<LevelSettings>, before: LevelSettings): Promise<void> {
  for (const name of RATES) {
    const value = c[name];
    const { min, max } = LEVEL_LIMITS[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < min || value > max)) {
      throw new LevelSettingsRefusal('INVALID_RATE', `${RATE_TEXT[name]} is a whole number from ${min} to ${max}.`, name);
    }
  }
  const newChannels = added(c.noXpChannelIds ?? [], before.noXpChannelIds);
  if (newChannels.length > 0) {
    if (c.noXpChannelIds!.length > LEVEL_LIMITS.noXpChannels) {
      throw new LevelSettingsRefusal('TOO_MANY_CHANNELS', `At most ${LEVEL_LIMITS.noXpChannels} channels earn nothing.`, 'noXpChannelIds');
    }
    const channels = new Map((await platform.listChannels(guildId)).map((ch) => [ch.id, ch.type]));
    const bad = newChannels.find((id) => !MESSAGE_CHANNELS.has(channels.get(id) ?? ''));
    if (bad) throw new LevelSettingsRefusal('INVALID_CHANNEL', `${bad} is not a channel of the server that members write in.`, 'noXpChannelIds');
  }
  const newRoles = added(c.noXpRoleIds ?? [], before.noXpRoleIds);
  if (newRoles.length > 0) {
    if (c.noXpRoleIds!.length > LEVEL_LIMITS.noXpRoles) {
      throw new LevelSettingsRefusal('TOO_MANY_ROLES', `At most ${LEVEL_LIMITS.noXpRoles} roles earn nothing.`, 'noXpRoleIds');
    }
    const roles = new Set((await platform.listRoles(guildId)).map((r) => r.id));
    const bad = newRoles.find((id) => !roles.has(id) || id === guildId);
    if (bad) throw new LevelSettingsRefusal('INVALID_ROLE', `${bad} is not a role of the server.`, 'noXpRoleIds');
  }
}
