import type { Kysely } from 'kysely';
import { countRanked } from '../../db/invites/board.js';
import { findInviteMilestone, listInviteMilestonePage, type InviteMilestone } from '../../db/invites/milestones.js';
import { findActiveSeason, listSeasonPage, type InviteSeasonRecord } from '../../db/invites/seasons.js';
import type { Database } from '../../db/schema.js';
import { cursorPage } from '../core/cursorPage.js';
import { InviteRefusal } from './inviteRefusal.js';

export interface SeasonRow extends InviteSeasonRecord {
  /** Members with invites in the season. */
  inviters: number;
}

/** The running season, and the server's seasons newest first (keyset on the number), each with its count of inviters. */
export async function readSeasonPage(
  db: Kysely<Database>,
  guildId: string,
  query: { before?: number; limit: number },
): Promise<{ active: InviteSeasonRecord | undefined; items: SeasonRow[]; nextCursor: string | null }> {
  const [active, page] = await Promise.all([
    findActiveSeason(db, guildId),
    cursorPage(query.limit, (limit) => listSeasonPage(db, guildId, query.before, limit), (s) => s.number),
  ]);
  const items = await Promise.all(page.items.map(async (s) => ({ ...s, inviters: await countRanked(db, { seasonId: s.id }) })));
  return { active, items, nextCursor: page.nextCursor };
}

/** The running season; refused with NO_ACTIVE_SEASON (409) while none runs, as ending one is. */
export async function readActiveSeason(db: Kysely<Database>, guildId: string): Promise<InviteSeasonRecord> {
  const active = await findActiveSeason(db, guildId);
  if (!active) throw new InviteRefusal('NO_ACTIVE_SEASON', 'No season is running: there is nothing to end.');
  return active;
}

/** A milestone's place in the list, as a cursor: `<invites>-<role id>`. */
export const milestoneCursor = (m: InviteMilestone) => `${m.invites}-${m.roleId}`;

/** The server's milestone rewards, lowest count first, after the cursor `after` (milestoneCursor). */
export async function readMilestonePage(
  db: Kysely<Database>,
  guildId: string,
  query: { after?: InviteMilestone; limit: number },
): Promise<{ items: InviteMilestone[]; nextCursor: string | null }> {
  const rows = await listInviteMilestonePage(db, guildId, query.after, query.limit + 1);
  const items = rows.slice(0, query.limit);
  return { items, nextCursor: rows.length > query.limit ? milestoneCursor(items.at(-1)!) : null };
}

/** One milestone of the server; refused with MILESTONE_NOT_FOUND. */
export async function readMilestone(db: Kysely<Database>, guildId: string, m: InviteMilestone): Promise<InviteMilestone> {
  const found = await findInviteMilestone(db, guildId, m);
  if (!found) throw new InviteRefusal('MILESTONE_NOT_FOUND', `This server has no milestone of role ${m.roleId} at ${m.invites} invites.`);
  return found;
}
