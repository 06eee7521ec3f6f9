import { BOT_INVITE_PERMISSIONS, addGuild, addMember, type FakeDiscord, type FakeGuildSeed } from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

export interface FakeServer {
  id: string;
  ownerId: string;
  roles: { staff: string; member: string; botRole: string };
  channels: { general: string; category: string; thread: string };
  /** A member (the inviter of the tests) who holds the member role. */
  inviterId: string;
}

/** A server on the fake Discord with the bot in it (holding its managed role with the invite link's permissions), a category, a channel and a thread. */
export function seedFakeServer(fake: FakeDiscord): FakeServer {
  const id = snowflake();
  const ownerId = snowflake();
  const inviterId = snowflake();
  const roles = { staff: snowflake(), member: snowflake(), botRole: snowflake() };
  const channels = { general: snowflake(), category: snowflake(), thread: snowflake() };
  const guild = addGuild(fake.state, {
    id,
    name: 'Gateway Server',
    ownerId,
    roles: [
      { id: roles.staff, name: 'Staff', position: 3, permissions: '8' },
      { id: roles.botRole, name: 'Community Bot', position: 2, managed: true, permissions: BOT_INVITE_PERMISSIONS },
      { id: roles.member, name: 'Member', position: 1 },
    ],
    channels: [
      { id: channels.category, type: 4, name: 'Text', position: 0 },
      { id: channels.general, type: 0, name: 'general', parent_id: channels.category, position: 1 },
      { id: channels.thread, type: 11, name: 'help thread', parent_id: channels.general },
    ],
    members: [
      { id: ownerId, username: 'owner' },
      { id: inviterId, username: 'ines', roles: [roles.member] },
    ],
  });
  addMember(fake.state, guild, { id: fake.state.bot.id, username: fake.state.bot.username, bot: true, roles: [roles.botRole] });
  return { id, ownerId, roles, channels, inviterId };
}

/**
 * A bare server on the fake Discord for a guild the test registered itself: no channels, the bot a member holding a
 * role with the invite link's permissions (on Discord the bot's roles decide what it may do there).
 */
export function serverWithBot(fake: FakeDiscord, guild: { id: string; ownerId: string }, name: string): FakeGuildSeed {
  const botRole = snowflake();
  return {
    id: guild.id,
    name,
    ownerId: guild.ownerId,
    roles: [{ id: botRole, name: 'Community Bot', position: 1, managed: true, permissions: BOT_INVITE_PERMISSIONS }],
    channels: [],
    members: [{ id: fake.state.bot.id, username: fake.state.bot.username, bot: true, roles: [botRole] }],
  };
}
