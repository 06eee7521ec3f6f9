import type { Kysely } from 'kysely';
import { findLevelSettings, saveLevelSettings, type LevelAnnounceTarget, type LevelSettings } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { Platform } from '../core/platform.js';
import { Refusal } from '../core/refusal.js';
import { LEVEL_UP_PLACEHOLDERS, LEVEL_UP_TEMPLATE_MAX, unknownPlaceholders } from './levelUpMessage.js';

export class LevelSettingsRefusal extends Refusal<'INVALID_TEMPLATE' | 'INVALID_CHANNEL' | 'ANNOUNCE_CHANNEL_REQUIRED'> {}

export interface LevelSettingsChange {
  guildId: string;
  /** Where level-ups are announced; undefined: unchanged, or `channel` when a channel is given. */
  announceTo?: LevelAnnounceTarget;
  /** The announcement channel (a text or announcement channel of the server); null: none; undefined: unchanged. */
  announceChannelId?: string | null;
  /** The announcement's text with its placeholders; undefined: unchanged. */
  announceTemplate?: string;
  actor: AuditActor;
}

/** Channels a member can read a level-up in, as giveaways post in. */
const POSTABLE = new Set(['text', 'announcement']);

async function check(platform: Platform, c: LevelSettingsChange, after: LevelSettings): Promise<void> {
  const template = c.announceTemplate;
  if (template !== undefined) {
    if (template.trim().length === 0 || template.length > LEVEL_UP_TEMPLATE_MAX) {
      throw new LevelSettingsRefusal('INVALID_TEMPLATE', `The message is 1 to ${LEVEL_UP_TEMPLATE_MAX} characters.`);
    }
    const unknown = unknownPlaceholders(template);
    if (unknown.length > 0) {
      throw new LevelSettingsRefusal('INVALID_TEMPLATE', `Unknown placeholder ${unknown.join(', ')}: the message may use ${LEVEL_UP_PLACEHOLDERS.join(' and ')}.`);
    }
  }
  if (after.announceTo === 'channel' && !after.announceChannelId) {
    throw new LevelSettingsRefusal('ANNOUNCE_CHANNEL_REQUIRED', 'Announcing in a channel needs the channel: give --announce-channel.');
  }
  if (typeof c.announceChannelId === 'string') {
    const channel = (await platform.listChannels(c.guildId)).find((ch) => ch.id === c.announceChannelId);
    if (!channel || !POSTABLE.has(channel.type)) {
      throw new LevelSettingsRefusal('INVALID_CHANNEL', `${c.announceChannelId} is not a text or announcement channel of the server.`);
    }
  }
}

/**
 * Staff set where level-ups are announced and what they say, in the caller's transaction, with an audit row holding
 * what was before and after. A refused change changes nothing; nothing asked to change: the settings as they are,
 * and no audit row.
 */
export async function changeLevelSettings(trx: Kysely<Database>, platform: Platform, c: LevelSettingsChange): Promise<LevelSettings> {
  const before = await findLevelSettings(trx, c.guildId);
  if (c.announceTo === undefined && c.announceChannelId === undefined && c.announceTemplate === undefined) return before;
  const after: LevelSettings = {
    ...before,
    announceTo: c.announceTo ?? (typeof c.announceChannelId === 'string' ? 'channel' : before.announceTo),
    ...(c.announceChannelId !== undefined && { announceChannelId: c.announceChannelId }),
    ...(c.announceTemplate !== undefined && { announceTemplate: c.announceTemplate }),
  };
  await check(platform, c, after);
  await saveLevelSettings(trx, c.guildId, after);
  await writeAudit(trx, { guildId: c.guildId, actor: c.actor, action: 'levels.settings', data: { before, after } });
  return after;
}
