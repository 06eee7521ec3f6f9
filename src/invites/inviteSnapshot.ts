import type { Kysely } from 'kysely';
import { lockInviteSnapshot, markInviteDeleted, pruneInviteSnapshots, putInviteSnapshots, type InviteSnapshotInput } from '../../db/invites/snapshots.js';
import type { Database } from '../../db/schema.js';
import { attributeJoin, type JoinAttribution } from './inviteAttribution.js';

// The bot's snapshot of a server's invites (use counts), which invite attribution compares each join with.

/** The server's whole invite list as the platform shows it now (GUILD_CREATE, after each join). */
export async function replaceInviteSnapshot(trx: Kysely<Database>, guildId: string, invites: InviteSnapshotInput[], at: Date): Promise<void> {
  await putInviteSnapshots(trx, guildId, invites, at);
  await pruneInviteSnapshots(
    trx,
    guildId,
    invites.map((i) => i.code),
  );
}

/** INVITE_CREATE: a new invite, counted from its current uses. */
export async function recordInviteCreated(trx: Kysely<Database>, guildId: string, invite: InviteSnapshotInput, at: Date): Promise<void> {
  await putInviteSnapshots(trx, guildId, [invite], at);
}

/**
 * INVITE_DELETE: kept, marked deleted, until the next join is compared with it: Discord deletes an invite at its
 * last allowed use, and that deletion may arrive before the join it was used for.
 */
export async function recordInviteDeleted(trx: Kysely<Database>, guildId: string, code: string, at: Date): Promise<void> {
  await markInviteDeleted(trx, guildId, code, at);
}

/** Compares the invites as they are now with the snapshot (locked), names the invite used, and keeps the new counts. */
export async function attributeJoinByInvites(trx: Kysely<Database>, guildId: string, now: InviteSnapshotInput[], at: Date): Promise<JoinAttribution> {
  const before = await lockInviteSnapshot(trx, guildId);
  const attribution = attributeJoin(before, now);
  await replaceInviteSnapshot(trx, guildId, now, at);
  return attribution;
}
