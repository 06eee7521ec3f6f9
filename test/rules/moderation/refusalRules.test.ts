import { describe, expect, it } from 'vitest';
import {
  highestPosition,
  MOD_ACTIONS,
  moderationRefusal,
  PERMISSION,
  permissionsOf,
  type Holder,
  type ModActionType,
  type ModerationSituation,
  type ModRefusal,
  type RoleRank,
} from '../../../src/moderation/refusalRules.js';

const GUILD = '100000000000000000';
const OWNER = '100000000000000001';
const BOT = '100000000000000002';
const MOD = '100000000000000003';
const TARGET = '100000000000000004';
const NOW = new Date('2026-11-22T12:00:00.000Z');
const LATER = new Date(NOW.getTime() + 3_600_000);
const P = PERMISSION;
const ALL_MOD = P.kickMembers | P.banMembers | P.moderateMembers;

const ROLES: RoleRank[] = [
  { id: GUILD, position: 0, permissions: 0n }, // the everyone role
  { id: 'member', position: 1, permissions: 0n },
  { id: 'kicker', position: 2, permissions: P.kickMembers },
  { id: 'banner', position: 2, permissions: P.banMembers },
  { id: 'helper', position: 3, permissions: P.moderateMembers },
  { id: 'mod', position: 5, permissions: ALL_MOD },
  { id: 'high', position: 7, permissions: 0n },
  { id: 'botrole', position: 9, permissions: ALL_MOD },
  { id: 'admin', position: 10, permissions: P.administrator },
  { id: 'top', position: 12, permissions: 0n },
];
const withEveryone = (permissions: bigint) => ROLES.map((r) => (r.id === GUILD ? { ...r, permissions } : r));

const holder = (userId: string, ...roleIds: string[]): Holder => ({ userId, roleIds });
const target = (roleIds: string[], timedOutUntil: Date | null = LATER) => ({ userId: TARGET, roleIds, timedOutUntil });

/** A situation in which `action` is allowed: a `mod` moderator, the bot with `botrole`, a plain member (banned for unban). */
function situation(action: ModActionType, over: Partial<ModerationSituation> = {}): ModerationSituation {
  return {
    action,
    guildId: GUILD,
    ownerId: OWNER,
    botUserId: BOT,
    roles: ROLES,
    moderator: holder(MOD, 'mod'),
    bot: holder(BOT, 'botrole'),
    target: action === 'unban' ? undefined : target(['member'], action === 'untimeout' ? LATER : null),
    targetUserId: TARGET,
    targetBanned: action === 'unban',
    now: NOW,
    ...over,
  };
}

/** One row per action: which of the six a role set permits; the others get `refusal`. */
function permissionRows(roleSets: Array<[string[], ModActionType[]]>, refusal: ModRefusal) {
  return roleSets.flatMap(([roles, allowed]) =>
    MOD_ACTIONS.map((action) => [roles.join('+') || '(no roles)', action, allowed.includes(action) ? undefined : refusal, roles] as const),
  );
}
const ROLE_SETS: Array<[string[], ModActionType[]]> = [
  [['helper'], ['warn', 'timeout', 'untimeout']],
  [['kicker'], ['kick']],
  [['banner'], ['ban', 'unban']],
  [['kicker', 'banner'], ['kick', 'ban', 'unban']],
  [['admin'], [...MOD_ACTIONS]],
  [['member'], []],
  [[], []],
  [['deleted-role'], []],
];

describe('moderationRefusal: allowed cases', () => {
  it('knows the six actions the tables below iterate over', () => {
    expect(MOD_ACTIONS).toEqual(['warn', 'timeout', 'untimeout', 'kick', 'ban', 'unban']);
  });

  it.each(MOD_ACTIONS)('allows %s by a moderator above the target, with the bot above too', (action) => {
    expect(moderationRefusal(situation(action))).toBeUndefined();
  });

  it.each(MOD_ACTIONS)('allows %s by the bot acting alone (moderator null)', (action) => {
    expect(moderationRefusal(situation(action, { moderator: null }))).toBeUndefined();
  });

  it.each(MOD_ACTIONS)('allows %s by the server owner holding no role at all', (action) => {
    expect(moderationRefusal(situation(action, { moderator: holder(OWNER) }))).toBeUndefined();
  });

  it('allows a ban of a user who is not a member', () => {
    expect(moderationRefusal(situation('ban', { target: undefined }))).toBeUndefined();
  });

  it('allows a timeout of a member already timed out (it is replaced)', () => {
    expect(moderationRefusal(situation('timeout', { target: target(['member'], LATER) }))).toBeUndefined();
  });
});

describe('moderationRefusal: permissions', () => {
  it.each(permissionRows(ROLE_SETS, 'MODERATOR_MISSING_PERMISSION'))('moderator with %s, %s → %s', (_l, action, expected, roles) => {
    expect(moderationRefusal(situation(action, { moderator: holder(MOD, ...roles) }))).toBe(expected);
  });

  it.each(permissionRows(ROLE_SETS, 'BOT_MISSING_PERMISSIONS'))('bot with %s, %s → %s', (_l, action, expected, roles) => {
    expect(moderationRefusal(situation(action, { bot: holder(BOT, ...roles) }))).toBe(expected);
    expect(moderationRefusal(situation(action, { bot: holder(BOT, ...roles), moderator: null }))).toBe(expected);
  });

  it.each(MOD_ACTIONS)('refuses %s when the moderator has left the server (undefined)', (action) => {
    expect(moderationRefusal(situation(action, { moderator: undefined }))).toBe('MODERATOR_MISSING_PERMISSION');
  });

  it.each([
    [0n, 'MODERATOR_MISSING_PERMISSION'],
    [P.kickMembers, undefined],
    [P.administrator, undefined],
  ] as const)('counts the everyone role (permissions %s) for a moderator who holds no permission role', (everyone, expected) => {
    const s = situation('kick', { roles: withEveryone(everyone), moderator: holder(MOD, 'member'), target: target([]) });
    expect(moderationRefusal(s)).toBe(expected);
  });

  it('asks the moderator first when both the moderator and the bot lack the permission', () => {
    expect(moderationRefusal(situation('ban', { moderator: holder(MOD, 'helper'), bot: holder(BOT, 'helper') }))).toBe(
      'MODERATOR_MISSING_PERMISSION',
    );
  });
});

describe('moderationRefusal: targets', () => {
  it.each(MOD_ACTIONS)('refuses %s on the bot itself with INVALID_TARGET', (action) => {
    const s = situation(action, { targetUserId: BOT, target: { ...holder(BOT, 'botrole'), timedOutUntil: LATER }, targetBanned: action === 'unban' });
    expect(moderationRefusal(s)).toBe('INVALID_TARGET');
  });

  it.each(MOD_ACTIONS)('refuses %s on the moderator themself with INVALID_TARGET', (action) => {
    const s = situation(action, { targetUserId: MOD, target: { ...holder(MOD, 'mod'), timedOutUntil: LATER }, targetBanned: action === 'unban' });
    expect(moderationRefusal(s)).toBe('INVALID_TARGET');
  });

  it('refuses the owner acting on themself with INVALID_TARGET, not HIERARCHY_HIGHER', () => {
    const s = situation('kick', { moderator: holder(OWNER), targetUserId: OWNER, target: { ...holder(OWNER), timedOutUntil: null } });
    expect(moderationRefusal(s)).toBe('INVALID_TARGET');
  });

  it.each(MOD_ACTIONS.flatMap((action) => [[action, holder(MOD, 'mod')] as const, [action, null] as const]))(
    'refuses %s on the server owner with HIERARCHY_HIGHER (moderator %o)',
    (action, moderator) => {
      const s = situation(action, { moderator, targetUserId: OWNER, target: { ...holder(OWNER), timedOutUntil: LATER }, targetBanned: action === 'unban' });
      expect(moderationRefusal(s)).toBe('HIERARCHY_HIGHER');
    },
  );

  it.each(['warn', 'timeout', 'untimeout', 'kick'] as const)('refuses %s on a non-member with MEMBER_NOT_FOUND', (action) => {
    expect(moderationRefusal(situation(action, { target: undefined }))).toBe('MEMBER_NOT_FOUND');
    expect(moderationRefusal(situation(action, { target: undefined, targetBanned: true }))).toBe('MEMBER_NOT_FOUND');
  });

  it.each([
    ['a non-member', undefined],
    ['a member', target(['member'])],
  ])('refuses unban of %s who is not banned with NOT_BANNED', (_l, t) => {
    expect(moderationRefusal(situation('unban', { target: t, targetBanned: false }))).toBe('NOT_BANNED');
  });

  it.each([
    ['a non-member', undefined],
    ['a member', target(['member'])],
    ['a member above everyone (checked before the hierarchy)', target(['top'])],
  ])('refuses ban of %s already banned with ALREADY_BANNED', (_l, t) => {
    expect(moderationRefusal(situation('ban', { target: t, targetBanned: true }))).toBe('ALREADY_BANNED');
  });

  it.each([
    ['not timed out', null, 'NOT_TIMED_OUT'],
    ['timed out until a moment ago', new Date(NOW.getTime() - 1), 'NOT_TIMED_OUT'],
    ['timed out until exactly now', new Date(NOW.getTime()), 'NOT_TIMED_OUT'],
    ['timed out for one more millisecond', new Date(NOW.getTime() + 1), undefined],
  ] as const)('untimeout of a member %s → %s', (_l, until, expected) => {
    expect(moderationRefusal(situation('untimeout', { target: target(['member'], until) }))).toBe(expected);
  });

  it('reports NOT_TIMED_OUT before the hierarchy for an untimeout', () => {
    expect(moderationRefusal(situation('untimeout', { target: target(['top'], null) }))).toBe('NOT_TIMED_OUT');
    expect(moderationRefusal(situation('untimeout', { target: target(['top'], LATER) }))).toBe('HIERARCHY_HIGHER');
  });
});

describe('moderationRefusal: role hierarchy', () => {
  const MEMBER_ACTIONS = ['warn', 'timeout', 'untimeout', 'kick', 'ban'] as const;
  const rows = (cases: Array<[string, Holder | null, string[], ModRefusal | undefined]>) =>
    MEMBER_ACTIONS.flatMap((action) => cases.map(([label, moderator, roles, expected]) => [action, label, roles, expected, moderator] as const));

  it.each(
    rows([
      ['mod(5)', holder(MOD, 'mod'), ['helper'], undefined],
      ['mod(5)', holder(MOD, 'mod'), ['ghost-role'], undefined],
      ['mod(5)', holder(MOD, 'mod'), ['mod'], 'HIERARCHY_HIGHER'],
      ['mod(5)', holder(MOD, 'mod'), ['high'], 'HIERARCHY_HIGHER'],
      ['mod(5)', holder(MOD, 'mod'), ['member', 'high'], 'HIERARCHY_HIGHER'],
      ['mod(5)', holder(MOD, 'mod'), ['top'], 'HIERARCHY_HIGHER'],
      ['mod(5)+high(7)', holder(MOD, 'mod', 'high'), ['mod'], undefined],
      ['admin(10)', holder(MOD, 'admin'), ['high'], undefined],
      ['admin(10)', holder(MOD, 'admin'), ['botrole'], 'HIERARCHY_HIGHER'],
      ['admin(10)', holder(MOD, 'admin'), ['admin'], 'HIERARCHY_HIGHER'],
      ['owner', holder(OWNER), ['high'], undefined],
      ['owner', holder(OWNER), ['top'], 'HIERARCHY_HIGHER'],
      ['none (bot alone)', null, ['high'], undefined],
      ['none (bot alone)', null, ['botrole'], 'HIERARCHY_HIGHER'],
      ['none (bot alone)', null, ['top'], 'HIERARCHY_HIGHER'],
    ]),
  )('%s by moderator %s on a target with %j → %s', (action, _label, roles, expected, moderator) => {
    expect(moderationRefusal(situation(action, { moderator, target: target(roles, LATER) }))).toBe(expected);
  });

  it.each([
    ['equal at the everyone role', [], [], 'HIERARCHY_HIGHER'],
    ['above by one role', ['member'], [], undefined],
  ] as const)('refuses a target at the same height as the moderator (%s)', (_l, modRoles, targetRoles, expected) => {
    const s = situation('kick', { roles: withEveryone(P.kickMembers), moderator: holder(MOD, ...modRoles), target: target([...targetRoles]) });
    expect(moderationRefusal(s)).toBe(expected);
  });

  it('judges the bot by its own highest role (bot at helper(3) cannot act on mod(5))', () => {
    const s = situation('timeout', { moderator: holder(OWNER), bot: holder(BOT, 'helper'), target: target(['mod']) });
    expect(moderationRefusal(s)).toBe('HIERARCHY_HIGHER');
  });
});

describe('permissionsOf and highestPosition', () => {
  const s = situation('kick');
  it.each([
    ['the owner without roles', holder(OWNER), ~0n, Number.POSITIVE_INFINITY],
    ['an administrator', holder(MOD, 'admin'), ~0n, 10],
    ['two roles (bits are combined)', holder(MOD, 'helper', 'kicker'), P.moderateMembers | P.kickMembers, 3],
    ['no roles', holder(MOD), 0n, 0],
    ['a role the server no longer has', holder(MOD, 'deleted-role'), 0n, 0],
  ] as const)('%s', (_l, h, permissions, position) => {
    expect(permissionsOf(s, h)).toBe(permissions);
    expect(highestPosition(s, h)).toBe(position);
  });

  it('adds the everyone role to every member', () => {
    const t = situation('kick', { roles: withEveryone(P.banMembers) });
    expect(permissionsOf(t, holder(MOD, 'kicker'))).toBe(P.kickMembers | P.banMembers);
    expect(permissionsOf(t, holder(MOD))).toBe(P.banMembers);
  });
});
