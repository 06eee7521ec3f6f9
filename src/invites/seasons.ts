import type { Kysely } from 'kysely';
import { endSeason, insertSeason, lockActiveSeason, type InviteSeasonRecord } from '../../db/invites/seasons.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { InviteRefusal } from './inviteRefusal.js';

/** Starts the next season now; refused while one is active, so windows never overlap. */
export async function startInviteSeason(
  trx: Kysely<Database>,
  s: { guildId: string; name: string | null; at: Date; actor: AuditActor },
): Promise<InviteSeasonRecord> {
  const season = await insertSeason(trx, s.guildId, s.name, s.at);
  if (!season) throw new InviteRefusal('SEASON_ACTIVE', `Guild ${s.guildId} has an active season; end it first.`);
  await writeAudit(trx, { guildId: s.guildId, actor: s.actor, action: 'invites.seasonStart', target: { type: 'season', id: String(season.number) }, data: { name: s.name } });
  return season;
}

/** Ends the active season now; its counts are frozen from then on. */
export async function endInviteSeason(trx: Kysely<Database>, s: { guildId: string; at: Date; actor: AuditActor }): Promise<InviteSeasonRecord> {
  const active = await lockActiveSeason(trx, s.guildId, 'update');
  if (!active) throw new InviteRefusal('NO_ACTIVE_SEASON', `Guild ${s.guildId} has no active season.`);
  const ended = await endSeason(trx, active.id, s.at);
  await writeAudit(trx, { guildId: s.guildId, actor: s.actor, action: 'invites.seasonEnd', target: { type: 'season', id: String(ended.number) } });
  return ended;
}

/** Ends the active season and starts the next one at the same instant, so no invite falls between them. */
export async function restartInviteSeason(
  trx: Kysely<Database>,
  s: { guildId: string; name: string | null; at: Date; actor: AuditActor },
): Promise<{ ended: InviteSeasonRecord; started: InviteSeasonRecord }> {
  const ended = await endInviteSeason(trx, s);
  return { ended, started: await startInviteSeason(trx, s) };
}
