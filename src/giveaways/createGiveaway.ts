import type { Kysely } from 'kysely';
import { insertGiveaway, type GiveawayRecord } from '../../db/giveaways/giveaways.js';
import type { GiveawaySettings } from '../../db/giveaways/settings.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { Requirements, type GiveawayStartBody } from './contract.js';
import { newSeed } from './drawRules.js';

export interface GiveawayCreation {
  guildId: string;
  body: GiveawayStartBody;
  /** The host when the body names none (the key's creator). */
  defaultHostId: string;
  settings: GiveawaySettings;
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
 * Creates a giveaway in the caller's transaction: `scheduled`, defaults from the server's Giveaways settings, a
 * fresh seed committed by its hash, the audit row. The giveaway workflow posts it at its start.
 */
export async function createGiveaway(trx: Kysely<Database>, c: GiveawayCreation): Promise<GiveawayRecord> {
  const { body } = c;
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
      color: body.embed?.color ?? c.settings.look.color,
      endedColor: body.embed?.endedColor ?? c.settings.look.endedColor,
      emoji: body.embed?.emoji ?? c.settings.look.emoji,
      imageUrl: body.embed?.imageUrl === undefined ? c.settings.look.imageUrl : body.embed.imageUrl,
      thumbnailUrl: body.embed?.thumbnailUrl === undefined ? c.settings.look.thumbnailUrl : body.embed.thumbnailUrl,
    },
    pingRoleId: body.pingRoleId ?? null,
    dmWinners: body.dmWinners ?? c.settings.dmWinners,
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
