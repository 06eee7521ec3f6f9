import type { Kysely } from 'kysely';
import { insertGiveaway, type GiveawayRecord } from '../../db/giveaways/giveaways.js';
import { findGiveawaySettings, type GiveawaySettings } from '../../db/giveaways/settings.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { invalidChannel, invalidRequest, invalidSchedule } from '../core/errors.js';
import type { Platform } from '../core/platform.js';
import { Requirements, type GiveawayStartBody } from './contract.js';
import { newSeed } from './drawRules.js';
import { MAX_DURATION_SECONDS, MIN_DURATION_SECONDS } from './giveawayRules.js';

const POSTABLE_CHANNELS = new Set(['text', 'announcement']);
/** How far ahead a giveaway may be scheduled (the spec sets no bound; a year keeps timers sane). */
const MAX_LEAD_MS = 365 * 86_400_000;

export interface GiveawayCreation {
  guildId: string;
  body: GiveawayStartBody;
  /** The host when the body names none (the key's creator). */
  defaultHostId: string;
  /** The server's Giveaways settings; read in the transaction when not given. */
  settings?: GiveawaySettings;
  at: Date;
  actor: AuditActor;
  requestId?: string;
}

/** When the giveaway starts and ends: startsAt (default now), then endsAt or durationSeconds after the start. */
export function scheduleOf(body: Pick<GiveawayStartBody, 'startsAt' | 'endsAt' | 'durationSeconds'>, now: Date): { startsAt: Date; endsAt: Date } {
  const startsAt = body.startsAt ? new Date(body.startsAt) : now;
  const endsAt = body.endsAt ? new Date(body.endsAt) : new Date(startsAt.getTime() + body.durationSeconds! * 1000);
  return { startsAt, endsAt };
}

/**
 * Refuses a giveaway that validated but cannot run: 422 INVALID_SCHEDULE for a start in the past or more than
 * 365 days ahead, or a length outside the allowed durations; 422 INVALID_CHANNEL unless the channel is a text or
 * announcement channel of the server.
 */
export async function checkGiveawayStart(platform: Platform, guildId: string, body: GiveawayStartBody, now: Date): Promise<void> {
  const { startsAt, endsAt } = scheduleOf(body, now);
  if (startsAt < now) throw invalidSchedule('startsAt must not be in the past.');
  if (startsAt.getTime() - now.getTime() > MAX_LEAD_MS) throw invalidSchedule('startsAt must be within 365 days from now.');
  const seconds = (endsAt.getTime() - startsAt.getTime()) / 1000;
  if (seconds < MIN_DURATION_SECONDS || seconds > MAX_DURATION_SECONDS) {
    throw invalidSchedule(`endsAt must be ${MIN_DURATION_SECONDS} to ${MAX_DURATION_SECONDS} seconds after the start.`);
  }
  const channel = (await platform.listChannels(guildId)).find((c) => c.id === body.channelId);
  if (!channel || !POSTABLE_CHANNELS.has(channel.type)) throw invalidChannel();
}

/**
 * The giveaway's host: the one the request names, else the API key's creator, else the server's owner (a key
 * made by an operator has no creator). Asks the platform, so it runs before the write's transaction opens.
 */
export async function giveawayHostOf(platform: Platform, guildId: string, body: GiveawayStartBody, keyCreatorId: string | null): Promise<string> {
  if (body.hostId) return body.hostId;
  if (keyCreatorId) return keyCreatorId;
  const guild = await platform.getGuild(guildId);
  if (!guild) throw invalidRequest([{ location: 'body', path: 'hostId', message: 'is required: the key has no creator to default to' }]);
  return guild.ownerId;
}

/**
 * Creates a giveaway in the caller's transaction: `scheduled`, defaults from the server's Giveaways settings, a
 * fresh seed committed by its hash, the audit row. The giveaway workflow posts it at its start.
 */
export async function createGiveaway(trx: Kysely<Database>, c: GiveawayCreation): Promise<GiveawayRecord> {
  const { body } = c;
  const settings = c.settings ?? (await findGiveawaySettings(trx, c.guildId));
  const { startsAt, endsAt } = scheduleOf(body, c.at);
  const { seed, seedHash } = newSeed();
  const giveaway = await insertGiveaway(trx, {
    guildId: c.guildId,
    status: 'scheduled',
    prize: body.prize,
    description: body.description ?? null,
    channelId: body.channelId,
    winnersCount: body.winners,
    startsAt,
    endsAt,
    hostId: body.hostId ?? c.defaultHostId,
    // Without requirements, the contract's defaults (anyone may enter, for free).
    requirements: body.requirements ?? Requirements.parse({}),
    embed: {
      color: body.embed?.color ?? settings.look.color,
      endedColor: body.embed?.endedColor ?? settings.look.endedColor,
      emoji: body.embed?.emoji ?? settings.look.emoji,
      imageUrl: body.embed?.imageUrl === undefined ? settings.look.imageUrl : body.embed.imageUrl,
      thumbnailUrl: body.embed?.thumbnailUrl === undefined ? settings.look.thumbnailUrl : body.embed.thumbnailUrl,
    },
    pingRoleId: body.pingRoleId ?? null,
    dmWinners: body.dmWinners ?? settings.dmWinners,
    seed,
    seedHash,
    createdAt: c.at,
  });
  await writeAudit(trx, {
    guildId: c.guildId,
    actor: c.actor,
    action: 'giveaways.start',
    target: { type: 'giveaway', id: String(giveaway.id) },
    ...(c.requestId ? { requestId: c.requestId } : {}),
    data: { prize: giveaway.prize, channelId: giveaway.channelId, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString(), seedHash },
  });
  return giveaway;
}
