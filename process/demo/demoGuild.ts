import type { Kysely } from 'kysely';
import { saveBankSettings } from '../../db/bank/accounts.js';
import { findGuild } from '../../db/guild/guilds.js';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import {
  insertPlatformMembersIfMissing,
  upsertPlatformChannels,
  upsertPlatformMember,
  upsertPlatformRoles,
  type PlatformRoleInput,
} from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { INVITE_LINK_PERMISSIONS } from '../../src/core/botPermissions.js';
import { FEATURES } from '../../src/core/features.js';
import { createGuild } from '../../src/guild/guildManagement.js';
import { seedDemoModeration } from './demoModeration.js';
import { seedDemoTickets } from './demoTickets.js';
import { seedDemoApplications } from './demoApplications.js';
import { seedDemoInvites } from './demoInvites.js';
import { seedDemoGiveaways } from './demoGiveaways.js';
import { seedDemoShop } from './demoShop.js';
import { seedDemoFlows } from './demoFlows.js';

export const DEMO_GUILD_ID = '1100000000000000001';
export const DEMO_OWNER_ID = '1100000000000000002';
export const DEMO_BOT_ID = '1100000000000000003';

// Platform permission bits (the values Discord uses).
const P = {
  kick: 1n << 1n,
  ban: 1n << 2n,
  administrator: 1n << 3n,
  manageGuild: 1n << 5n,
  manageMessages: 1n << 13n,
  manageRoles: 1n << 28n,
  moderate: 1n << 40n,
};

const id = (n: number) => `11000000000000${String(n).padStart(5, '0')}`;

const ROLES: PlatformRoleInput[] = [
  { roleId: id(100), name: 'Owner', position: 9, color: 0xe74c3c, hoist: true, permissions: P.administrator },
  // What the invite link grants (README), so the Discord fake (`--platform fake-discord`) lets the bot do its work.
  { roleId: id(101), name: 'Community Bot', position: 8, managed: true, permissions: INVITE_LINK_PERMISSIONS | P.manageMessages },
  { roleId: id(102), name: 'Admin', position: 7, color: 0xe67e22, hoist: true, permissions: P.administrator },
  { roleId: id(103), name: 'Moderator', position: 6, color: 0x3498db, hoist: true, mentionable: true, permissions: P.kick | P.ban | P.moderate | P.manageMessages },
  { roleId: id(104), name: 'Helper', position: 5, color: 0x1abc9c, permissions: P.moderate },
  { roleId: id(105), name: 'VIP', position: 4, color: 0xf1c40f },
  { roleId: id(106), name: 'Level 10', position: 3, color: 0x9b59b6 },
  { roleId: id(107), name: 'Member', position: 2 },
  { roleId: id(108), name: 'Muted', position: 1, color: 0x95a5a6 },
  { roleId: DEMO_GUILD_ID, name: '@everyone', position: 0 },
];

const CHANNELS = [
  { channelId: id(200), name: 'INFORMATION', type: 'category', position: 0 },
  { channelId: id(201), name: 'rules', type: 'text', parentId: id(200), position: 0 },
  { channelId: id(202), name: 'announcements', type: 'announcement', parentId: id(200), position: 1 },
  { channelId: id(210), name: 'COMMUNITY', type: 'category', position: 1 },
  { channelId: id(211), name: 'general', type: 'text', parentId: id(210), position: 0 },
  { channelId: id(212), name: 'level-ups', type: 'text', parentId: id(210), position: 1 },
  { channelId: id(213), name: 'ideas', type: 'forum', parentId: id(210), position: 2 },
  { channelId: id(214), name: 'Lounge', type: 'voice', parentId: id(210), position: 3 },
  { channelId: id(215), name: 'welcome thread', type: 'thread', parentId: id(211), position: 0 },
  { channelId: id(220), name: 'EVENTS', type: 'category', position: 2 },
  { channelId: id(221), name: 'Stage', type: 'stage', parentId: id(220), position: 0 },
  { channelId: id(222), name: 'giveaways', type: 'text', parentId: id(220), position: 1 },
  { channelId: id(230), name: 'STAFF', type: 'category', position: 3 },
  { channelId: id(231), name: 'bank-log', type: 'text', parentId: id(230), position: 0 },
  { channelId: id(232), name: 'mod-log', type: 'text', parentId: id(230), position: 1 },
];

const NAMES = [
  'aurora', 'basil', 'cedar', 'dahlia', 'ember', 'fable', 'garnet', 'harbor', 'indigo', 'juniper',
  'kestrel', 'lumen', 'maple', 'nimbus', 'onyx', 'pepper', 'quartz', 'raven', 'sable', 'thistle',
  'umber', 'vesper', 'willow', 'xenon', 'yarrow', 'zephyr', 'acorn', 'bramble', 'cobalt', 'drift',
  'echo', 'fjord', 'grove', 'heath', 'iris', 'jasper', 'kelp', 'lark', 'moss', 'nova',
  'opal', 'pine', 'quill', 'reed', 'slate', 'tide',
];

/** Role ids of the i-th ordinary member: staff first, then VIPs, everybody a Member. */
function rolesOf(i: number): string[] {
  const member = id(107);
  if (i < 2) return [id(102), member];
  if (i < 5) return [id(103), member];
  if (i < 8) return [id(104), member];
  if (i < 14) return [id(105), member];
  if (i === 45) return [id(108), member];
  return [member];
}

/**
 * The demo server of `npm run dev`: Pro, every feature on, roles in a hierarchy, channels in categories,
 * 46 members plus the owner and the bot, and a moderation history with appeals. Running it again changes nothing.
 */
export async function seedDemoGuild(db: Kysely<Database>, now = new Date()): Promise<string> {
  if (!(await findGuild(db, DEMO_GUILD_ID))) {
    await createGuild(db, {
      id: DEMO_GUILD_ID,
      name: 'Demo Community',
      icon: null,
      locale: 'en',
      plan: 'pro',
      features: [...FEATURES],
      blocked: false,
      ownerId: DEMO_OWNER_ID,
      botUserId: DEMO_BOT_ID,
      actor: { type: 'system' },
    });
    await saveBankSettings(db, DEMO_GUILD_ID, {
      currency: { name: 'coin', plural: 'coins', emoji: '🪙' },
      startingBalance: 100,
      maxBalance: 1_000_000_000_000,
      logChannelId: id(231),
    });
    await saveLevelSettings(db, DEMO_GUILD_ID, {
      announceChannelId: id(212),
      announceTemplate: 'GG {user}, you reached level {level}!',
      removePreviousRewards: false,
    });
    await addLevelReward(db, DEMO_GUILD_ID, { level: 10, roleId: id(106) });
  }
  await upsertPlatformRoles(db, DEMO_GUILD_ID, ROLES);
  await upsertPlatformChannels(db, DEMO_GUILD_ID, CHANNELS);
  // createGuild adds the owner and the bot without names or roles; give them theirs.
  await upsertPlatformMember(db, { guildId: DEMO_GUILD_ID, userId: DEMO_OWNER_ID, username: 'demo-owner', bot: false, roleIds: [id(100)] });
  await upsertPlatformMember(db, { guildId: DEMO_GUILD_ID, userId: DEMO_BOT_ID, username: 'community-bot', bot: true, roleIds: [id(101)] });
  // Only missing members are added, so roles granted while the demo ran (level rewards) survive a restart.
  await insertPlatformMembersIfMissing(
    db,
    NAMES.map((name, i) => ({
      guildId: DEMO_GUILD_ID,
      userId: id(1000 + i),
      username: name,
      globalName: name[0]!.toUpperCase() + name.slice(1),
      bot: false,
      roleIds: rolesOf(i),
      joinedAt: new Date(Date.UTC(2025, i % 12, 1 + i)),
    })),
  );
  await seedDemoModeration(db, DEMO_GUILD_ID, { modLog: id(232), invites: id(201) }, now);
  await seedDemoTickets(db, DEMO_GUILD_ID, now);
  await seedDemoApplications(db, DEMO_GUILD_ID, { helperRole: id(104), hostRole: id(105), announce: id(202), review: id(232) }, now);
  await seedDemoInvites(db, DEMO_GUILD_ID, { member: (i) => id(1000 + i), vipRole: id(105) }, now);
  await seedDemoGiveaways(db, DEMO_GUILD_ID, { channel: id(222), host: DEMO_OWNER_ID, vipRole: id(105), member: (i) => id(1000 + i) }, now);
  await seedDemoShop(db, DEMO_GUILD_ID, { vipRole: id(105), abovePosition: 4, role: id }, now);
  await seedDemoFlows(db, DEMO_GUILD_ID, { general: id(211), log: id(231) }, now);
  return DEMO_GUILD_ID;
}
