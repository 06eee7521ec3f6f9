import type { DispatchHandler } from './handler.js';
import { channelDelete, channelModify } from './handlers/channels.js';
import { guildCreate } from './handlers/guildCreate.js';
import { guildMemberAdd } from './handlers/guildMemberAdd.js';
import { guildMemberRemove } from './handlers/guildMemberRemove.js';
import { guildDelete, guildMemberUpdate } from './handlers/guildMembership.js';
import { guildRoleDelete, guildRoleModify } from './handlers/guildRoles.js';
import { interactionCreate } from './handlers/interactionCreate.js';
import { inviteCreate, inviteDelete } from './handlers/invites.js';
import { messageCreate } from './handlers/messageCreate.js';
import { withinInteractionWindow } from './interactions/interactionWindow.js';
import { RECONCILE_MEMBERS, reconcileMembers } from './handlers/reconcileMembers.js';

/** Gateway event name -> its handler; events not listed are ignored (issue 24 adds the others slice by slice). */
export const DISPATCH_TABLE: Readonly<Record<string, DispatchHandler>> = {
  GUILD_CREATE: guildCreate,
  GUILD_DELETE: guildDelete,
  GUILD_ROLE_CREATE: guildRoleModify,
  GUILD_ROLE_UPDATE: guildRoleModify,
  GUILD_ROLE_DELETE: guildRoleDelete,
  CHANNEL_CREATE: channelModify,
  CHANNEL_UPDATE: channelModify,
  CHANNEL_DELETE: channelDelete,
  INVITE_CREATE: inviteCreate,
  INVITE_DELETE: inviteDelete,
  GUILD_MEMBER_ADD: guildMemberAdd,
  GUILD_MEMBER_REMOVE: guildMemberRemove,
  GUILD_MEMBER_UPDATE: guildMemberUpdate,
  MESSAGE_CREATE: messageCreate,
  INTERACTION_CREATE: withinInteractionWindow(interactionCreate),
  [RECONCILE_MEMBERS]: reconcileMembers,
};
