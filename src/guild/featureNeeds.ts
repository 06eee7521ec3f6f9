import { BOT_PERMISSION, holds } from '../core/botPermissions.js';
import { FEATURES, type Feature } from '../core/features.js';

type PermissionName = keyof typeof BOT_PERMISSION;

/** Discord's names of the permissions, as a server's settings show them. */
const PERMISSION_LABELS: Record<PermissionName, string> = {
  createInstantInvite: 'Create Invite',
  kickMembers: 'Kick Members',
  banMembers: 'Ban Members',
  administrator: 'Administrator',
  manageChannels: 'Manage Channels',
  manageGuild: 'Manage Server',
  viewAuditLog: 'View Audit Log',
  viewChannel: 'View Channels',
  sendMessages: 'Send Messages',
  embedLinks: 'Embed Links',
  manageRoles: 'Manage Roles',
  manageThreads: 'Manage Threads',
  moderateMembers: 'Timeout Members',
};

const posting = (what: string) =>
  [
    { permission: 'viewChannel', for: what },
    { permission: 'sendMessages', for: what },
    { permission: 'embedLinks', for: what },
  ] as const;

/**
 * What each feature asks of the platform (the calls its activities and the bot make, each checked by the Discord
 * adapter's refusal guard or refused by Discord without the permission), and what for.
 */
const FEATURE_NEEDS: Record<Feature, ReadonlyArray<{ permission: PermissionName; for: string }>> = {
  levels: [{ permission: 'manageRoles', for: 'reward roles' }, ...posting('level-up announcements')],
  bank: posting('the bank log channel'),
  shop: [{ permission: 'manageRoles', for: 'role items' }],
  invites: [
    { permission: 'manageGuild', for: 'reading the invites members join through' },
    { permission: 'manageRoles', for: 'milestone reward roles' },
  ],
  giveaways: posting('giveaway messages'),
  flows: [{ permission: 'manageRoles', for: 'role steps' }, ...posting('message steps')],
  tickets: [
    { permission: 'manageChannels', for: 'ticket channels' },
    { permission: 'manageThreads', for: 'ticket threads' },
    ...posting('panels and ticket messages'),
  ],
  applications: [{ permission: 'manageRoles', for: 'roles given or removed on decisions' }, ...posting('form panels and review messages')],
  appeals: [
    { permission: 'banMembers', for: 'lifting a ban' },
    { permission: 'createInstantInvite', for: 'the invite sent with an approval' },
  ],
  moderation: [
    { permission: 'banMembers', for: 'bans' },
    { permission: 'kickMembers', for: 'kicks' },
    { permission: 'moderateMembers', for: 'timeouts' },
    ...posting('the moderation log'),
  ],
  members: [],
};

export interface PermissionNeed {
  label: string;
  for: string;
  /** Whether the bot holds it now; null while its permissions are not known. */
  held: boolean | null;
}

/** Each feature's needs against the bot's server-level permissions (null: not known; see readBotPermissions). */
export function featureNeeds(held: bigint | null): Record<Feature, PermissionNeed[]> {
  return Object.fromEntries(
    FEATURES.map((f) => [f, FEATURE_NEEDS[f].map((n) => ({ label: PERMISSION_LABELS[n.permission], for: n.for, held: held === null ? null : holds(held, BOT_PERMISSION[n.permission]) }))]),
  ) as Record<Feature, PermissionNeed[]>;
}
