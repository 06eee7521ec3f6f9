import type { Kysely } from 'kysely';
import { findLevelSettings, lockLevelSettings, saveLevelSettings, type LevelAnnounceTarget, type LevelSettings } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { Platform } from '../core/platform.js';
import { LEVEL_UP_PLACEHOLDERS, LEVEL_UP_TEMPLATE_MAX, unknownPlaceholders } from './levelUpMessage.js';
import { checkXpRules, LevelSettingsRefusal } from './levelRules.js';

export { LevelSettingsRefusal };

export interface LevelSettingsChange {
  guildId: string;
  /** Where level-ups are announced; undefined: unchanged, or `channel` when a channel is given. */
  announceTo?: LevelAnnounceTarget;
  /** The announcement channel (a text or announcement channel of the server); null: none; undefined: unchanged. */
  announceChannelId?: string | null;
  /** The announcement's text with its placeholders; undefined: unchanged. */
  announceTemplate?: string;
  /** XP rates and the cooldown (levelRules.ts LEVEL_LIMITS); undefined: unchanged. */
  xpPerMessage?: number;
  xpPerVoiceMinute?: number;
  messageCooldownSeconds?: number;
  /** Reward roles replace each other (true) or stack; undefined: unchanged. */
  removePreviousRewards?: boolean;
  /** The roles whose members' messages earn nothing, the whole list; undefined: unchanged. */
  noXpRoleIds?: string[];
  /** One channel whose messages earn nothing added or taken off the list (so two managers' edits both stand). */
  noXpChannel?: { add: string } | { remove: string };
  actor: AuditActor;
}

/** Channels a member can read a level-up in, as giveaways post in. */
const POSTABLE = new Set(['text', 'announcement']);

const ASKS: ReadonlyArray<keyof LevelSettingsChange> = [
  'announceTo', 'announceChannelId', 'announceTemplate', 'xpPerMessage', 'xpPerVoiceMinute', 'messageCooldownSeconds', 'removePreviousRewards', 'noXpRoleIds', 'noXpChannel',
];

async function checkAnnouncement(platform: Platform, c: LevelSettingsChange, after: LevelSettings): Promise<void> {
  const template = c.announceTemplate;
  if (template !== undefined) {
    if (template.trim().length === 0 || template.length > LEVEL_UP_TEMPLATE_MAX) {
      throw new LevelSettingsRefusal('INVALID_TEMPLATE', `The message is 1 to ${LEVEL_UP_TEMPLATE_MAX} characters.`, 'announceTemplate');
    }
    const unknown = unknownPlaceholders(template);
    if (unknown.length > 0) {
      throw new LevelSettingsRefusal('INVALID_TEMPLATE', `Unknown placeholder ${unknown.join(', ')}: the message may use ${LEVEL_UP_PLACEHOLDERS.join(' and ')}.`, 'announceTemplate');
    }
  }
  if (after.announceTo === 'channel' && !after.announceChannelId) {
    throw new LevelSettingsRefusal('ANNOUNCE_CHANNEL_REQUIRED', 'Announcing in a channel needs the channel: give --announce-channel.', 'announceChannelId');
  }
  if (typeof c.announceChannelId === 'string') {
    const channel = (await platform.listChannels(c.guildId)).find((ch) => ch.id === c.announceChannelId);
    if (!channel || !POSTABLE.has(channel.type)) {
      throw new LevelSettingsRefusal('INVALID_CHANNEL', `${c.announceChannelId} is not a text or announcement channel of the server.`, 'announceChannelId');
    }
  }
}

function noXpChannelsAfter(before: string[], op: LevelSettingsChange['noXpChannel']): string[] | undefined {
  if (!op) return undefined;
  if ('add' in op) return before.includes(op.add) ? before : [...before, op.add];
  return before.filter((id) => id !== op.remove);
}

/**
 * Staff set where level-ups are announced and what they say, what members earn and what earns nothing, in the
 * caller's transaction (the settings row locked, so two managers' edits apply one after the other), with an audit
 * row holding what was before and after. A refused change changes nothing; nothing asked to change: the settings as
 * they are, and no audit row.
 */
export async function changeLevelSettings(trx: Kysely<Database>, platform: Platform, c: LevelSettingsChange): Promise<LevelSettings> {
  if (ASKS.every((k) => c[k] === undefined)) return findLevelSettings(trx, c.guildId);
  const before = await lockLevelSettings(trx, c.guildId);
  const noXpChannelIds = noXpChannelsAfter(before.noXpChannelIds, c.noXpChannel);
  const rules = {
    ...(c.xpPerMessage !== undefined && { xpPerMessage: c.xpPerMessage }),
    ...(c.xpPerVoiceMinute !== undefined && { xpPerVoiceMinute: c.xpPerVoiceMinute }),
    ...(c.messageCooldownSeconds !== undefined && { messageCooldownSeconds: c.messageCooldownSeconds }),
    ...(c.removePreviousRewards !== undefined && { removePreviousRewards: c.removePreviousRewards }),
    ...(c.noXpRoleIds !== undefined && { noXpRoleIds: [...new Set(c.noXpRoleIds)] }),
    ...(noXpChannelIds !== undefined && { noXpChannelIds }),
  };
  const after: LevelSettings = {
    ...before,
    announceTo: c.announceTo ?? (typeof c.announceChannelId === 'string' ? 'channel' : before.announceTo),
    ...(c.announceChannelId !== undefined && { announceChannelId: c.announceChannelId }),
    ...(c.announceTemplate !== undefined && { announceTemplate: c.announceTemplate }),
    ...rules,
  };
  await checkAnnouncement(platform, c, after);
  await checkXpRules(platform, c.guildId, rules, before);
  await saveLevelSettings(trx, c.guildId, after);
  await writeAudit(trx, { guildId: c.guildId, actor: c.actor, action: 'levels.settings', data: { before, after } });
  return after;
}
