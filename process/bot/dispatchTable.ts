import type { DispatchHandler } from './handler.js';
import { guildMemberAdd } from './handlers/guildMemberAdd.js';
import { guildMemberRemove } from './handlers/guildMemberRemove.js';
import { messageCreate } from './handlers/messageCreate.js';
import { RECONCILE_MEMBERS, reconcileMembers } from './handlers/reconcileMembers.js';

/** Gateway event name -> its handler; events not listed are ignored (issue 24 adds the others slice by slice). */
export const DISPATCH_TABLE: Readonly<Record<string, DispatchHandler>> = {
  GUILD_MEMBER_ADD: guildMemberAdd,
  GUILD_MEMBER_REMOVE: guildMemberRemove,
  MESSAGE_CREATE: messageCreate,
  [RECONCILE_MEMBERS]: reconcileMembers,
};
