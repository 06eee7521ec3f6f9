import { describe, expect, it } from 'vitest';
import type { PlatformChannel, PlatformChannelType, PlatformRole } from '../../../src/core/platform.js';
import { channelsInSidebarOrder, compareSnowflakes, displayName, roleColorHex, rolesHighestFirst } from '../../../src/guild/ordering.js';

const GUILD = '400000000000000000';

describe('compareSnowflakes', () => {
  it.each([
    ['9', '10', -1],
    ['10', '9', 1],
    ['123', '123', 0],
    ['400000000000000002', '400000000000000010', -1],
    ['400000000000000010', '400000000000000002', 1],
    // 17 digits against 18: numerically smaller although "9..." sorts after "1..." as text.
    ['99999999999999999', '100000000000000000', -1],
    ['100000000000000000', '99999999999999999', 1],
    ['18446744073709551615', '18446744073709551614', 1],
  ])('compares %s with %s as %i', (a, b, sign) => {
    expect(Math.sign(compareSnowflakes(a, b))).toBe(sign);
  });

  it('sorts a list numerically', () => {
    expect(['1000', '20', '3', '200', '21'].sort(compareSnowflakes)).toEqual(['3', '20', '21', '200', '1000']);
  });
});

const role = (id: string, position: number): PlatformRole => ({
  id,
  name: `role ${id}`,
  color: null,
  position,
  managed: false,
  hoist: false,
  mentionable: false,
  permissions: 0n,
});

describe('rolesHighestFirst', () => {
  it.each([
    ['by position, highest first', [role('11', 1), role('13', 3), role('12', 2)], ['13', '12', '11']],
    ['without the everyone role', [role(GUILD, 0), role('11', 1)], ['11']],
    ['ties by id, lower id first', [role('22', 5), role('21', 5), role('23', 5)], ['21', '22', '23']],
    // Numeric, not text order: the 17-digit id is the lower one.
    ['ties by numeric id', [role('100000000000000000', 2), role('99999999999999999', 2)], ['99999999999999999', '100000000000000000']],
    ['a server with only the everyone role', [role(GUILD, 0)], []],
    ['nothing', [], []],
  ])('orders %s', (_label, roles, ids) => {
    expect(rolesHighestFirst(GUILD, roles).map((r) => r.id)).toEqual(ids);
  });

  it('does not reorder the list it is given', () => {
    const roles = [role('11', 1), role(GUILD, 0), role('13', 3)];
    rolesHighestFirst(GUILD, roles);
    expect(roles.map((r) => r.id)).toEqual(['11', GUILD, '13']);
  });
});

const channel = (id: string, type: PlatformChannelType, position: number, parentId: string | null = null): PlatformChannel => ({
  id,
  name: `ch-${id}`,
  type,
  parentId,
  position,
});

describe('channelsInSidebarOrder', () => {
  it('lists uncategorised channels first, then each category with its text-like and then voice-like channels', () => {
    const channels = [
      channel('600', 'text', 5, '501'),
      channel('601', 'voice', 0, '501'),
      channel('602', 'stage', 1, '501'),
      channel('603', 'forum', 2, '501'),
      channel('604', 'thread', 0, '600'),
      channel('501', 'category', 1),
      channel('502', 'category', 0),
      channel('610', 'text', 0, '502'),
      channel('700', 'text', 1),
      channel('701', 'voice', 0),
      channel('702', 'announcement', 2),
      channel('703', 'text', 0, '999'), // its category is unknown
    ];
    expect(channelsInSidebarOrder(channels).map((c) => c.id)).toEqual([
      '703', '700', '702', '701',
      '502', '610',
      '501', '603', '600', '601', '602',
    ]);
  });

  it.each([
    ['threads are never listed', [channel('1', 'thread', 0), channel('2', 'text', 0)], ['2']],
    ['a parent that is a text channel counts as unknown', [channel('1', 'text', 1), channel('2', 'text', 0, '1')], ['2', '1']],
    ['an empty category is still listed', [channel('1', 'category', 0), channel('2', 'text', 0)], ['2', '1']],
    ['position ties are broken by numeric id', [channel('100', 'text', 0), channel('99', 'text', 0), channel('101', 'text', 0)], ['99', '100', '101']],
    ['category ties are broken by numeric id', [channel('20', 'category', 0), channel('3', 'category', 0)], ['3', '20']],
    [
      'media, forum, announcement and other are text-like; voice and stage voice-like',
      [
        channel('1', 'stage', 0),
        channel('2', 'voice', 1),
        channel('3', 'media', 2),
        channel('4', 'other', 3),
        channel('5', 'forum', 4),
        channel('6', 'announcement', 5),
      ],
      ['3', '4', '5', '6', '1', '2'],
    ],
    ['nothing', [], []],
  ])('%s', (_label, channels, ids) => {
    expect(channelsInSidebarOrder(channels).map((c) => c.id)).toEqual(ids);
  });

  it('does not reorder the list it is given', () => {
    const channels = [channel('2', 'text', 1), channel('1', 'text', 0)];
    channelsInSidebarOrder(channels);
    expect(channels.map((c) => c.id)).toEqual(['2', '1']);
  });
});

describe('displayName', () => {
  it.each([
    [{ nickname: 'Nick', globalName: 'Global', username: 'user' }, 'Nick'],
    [{ nickname: null, globalName: 'Global', username: 'user' }, 'Global'],
    [{ nickname: null, globalName: null, username: 'user' }, 'user'],
  ])('%o → %s', (member, expected) => {
    expect(displayName(member)).toBe(expected);
  });
});

describe('roleColorHex', () => {
  it.each([
    [null, null],
    [0, null],
    [1, '#000001'],
    [0x00ab12, '#00AB12'],
    [0xff8800, '#FF8800'],
    [0xffffff, '#FFFFFF'],
    [0x5865f2, '#5865F2'],
  ])('%s → %s', (color, expected) => {
    expect(roleColorHex(color)).toBe(expected);
  });
});
