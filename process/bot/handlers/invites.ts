import type { GatewayInviteCreateDispatchData, GatewayInviteDeleteDispatchData } from 'discord-api-types/v10';
import { recordInviteCreated, recordInviteDeleted } from '../../../src/invites/inviteSnapshot.js';
import type { DispatchHandler } from '../handler.js';

/** INVITE_CREATE: the new invite joins the snapshot joins are compared with (a replay sets the same row). */
export const inviteCreate: DispatchHandler = async (data, { db, clock }) => {
  const d = data as GatewayInviteCreateDispatchData;
  if (!d.guild_id) return;
  const invite = { code: d.code, inviterId: d.inviter?.id ?? null, channelId: d.channel_id, uses: d.uses, maxUses: d.max_uses };
  await db.transaction().execute((trx) => recordInviteCreated(trx, d.guild_id!, invite, clock.now()));
};

/** INVITE_DELETE: marked deleted, compared once more with the next join (its last use may be that join). */
export const inviteDelete: DispatchHandler = async (data, { db, clock }) => {
  const d = data as GatewayInviteDeleteDispatchData;
  if (!d.guild_id) return;
  await db.transaction().execute((trx) => recordInviteDeleted(trx, d.guild_id!, d.code, clock.now()));
};
