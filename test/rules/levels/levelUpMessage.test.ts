import { describe, expect, it } from 'vitest';
import { levelUpMessage, levelUpText, unknownPlaceholders } from '../../../src/levels/levelUpMessage.js';

const userId = '200000000000000001';

describe('levelUpText', () => {
  it.each([
    ['GG {user}, you reached level {level}!', 5, `GG <@${userId}>, you reached level 5!`],
    ['{user}', 1, `<@${userId}>`],
    ['{level}', 0, '0'],
    ['{level}', 175_483, '175483'],
    ['{user} {user} reached {level}, yes {level}', 12, `<@${userId}> <@${userId}> reached 12, yes 12`],
    ['Level up!', 3, 'Level up!'],
    ['', 3, ''],
    // Only the exact placeholders are replaced: not other cases, not partial braces.
    ['{USER} {Level} {user {level', 4, '{USER} {Level} {user {level'],
    ['{{user}}', 2, `{<@${userId}>}`],
    // The template is not a pattern: $-sequences and regex characters stay as written.
    ['{user} paid $& and $1 for {level}.*', 9, `<@${userId}> paid $& and $1 for 9.*`],
    ['multi\nline {level}', 7, 'multi\nline 7'],
  ])('renders %j at level %i as %j', (template, level, expected) => {
    expect(levelUpText(template, userId, level)).toBe(expected);
  });
});

describe('levelUpMessage', () => {
  it('in a channel: the member pinged in the content, and only them; the card titled with the level', () => {
    expect(levelUpMessage('@everyone look: {user} is level {level} <@&300000000000000001>', { userId, level: 4, direct: false })).toEqual({
      content: `<@${userId}>`,
      embeds: [{ title: 'Level 4', description: `@everyone look: <@${userId}> is level 4 <@&300000000000000001>`, color: 0x5865f2 }],
      mentions: { userIds: [userId], roleIds: [] },
    });
  });

  it('in a DM: the card alone, pinging no one', () => {
    expect(levelUpMessage('GG {user}', { userId, level: 2, direct: true })).toEqual({
      content: '',
      embeds: [{ title: 'Level 2', description: `GG <@${userId}>`, color: 0x5865f2 }],
      mentions: { userIds: [], roleIds: [] },
    });
  });
});

describe('unknownPlaceholders', () => {
  it.each([
    ['GG {user}, level {level}!', []],
    ['{USER} {lvl} {user} {lvl}', ['{USER}', '{lvl}']],
    ['{} and {server}', ['{}', '{server}']],
    ['no braces, { spaced } braces', []],
  ])('%j -> %j', (template, expected) => {
    expect(unknownPlaceholders(template)).toEqual(expected);
  });
});
