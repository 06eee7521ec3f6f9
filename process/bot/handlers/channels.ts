import type { GatewayChannelModifyDispatchData } from 'discord-api-types/v10';
import { applyMirrorChange } from '../../../src/guild/platformMirror.js';
import { toChannel } from '../../../src/platform/discord/discordShapes.js';
import type { DispatchHandler } from '../handler.js';

/** CHANNEL_CREATE and CHANNEL_UPDATE of a server's channel (DMs carry no guild_id and are ignored). */
export const channelModify: DispatchHandler = async (data, { db }) => {
  const d = data as Partial<GatewayChannelModifyDispatchData>;
  if (!d.guild_id) return;
  const channel = toChannel(d as GatewayChannelModifyDispatchData);
  await db.transaction().execute((trx) => applyMirrorChange(trx, d.guild_id!, { kind: 'channel', channel }));
};

export const channelDelete: DispatchHandler = async (data, { db }) => {
  const d = data as Partial<GatewayChannelModifyDispatchData>;
  if (!d.guild_id || !d.id) return;
  const channelId = d.id;
  await db.transaction().execute((trx) => applyMirrorChange(trx, d.guild_id!, { kind: 'channelDeleted', channelId }));
};
