import { describe, expect, it } from 'vitest';
import { levelUpMessage } from '../../../src/levels/levelUpMessage.js';

const userId = '200000000000000001';

describe('levelUpMessage', () => {
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
    expect(levelUpMessage(template, userId, level)).toBe(expected);
  });
});
