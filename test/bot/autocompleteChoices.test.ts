import { describe, expect, it } from 'vitest';
import { choiceOf, firstChoices } from '../../process/bot/commands/choices.js';

// Suggestions fitted to what Discord takes (its fake refuses the rest: test/platform/fakeAutocomplete.test.ts).

describe('autocomplete choices', () => {
  it.each([
    ['a short name as it is', 'Poster', 'Poster'],
    ['a name of exactly 100 characters as it is', 'p'.repeat(100), 'p'.repeat(100)],
    ['a longer name cut to 99 characters and an ellipsis', 'p'.repeat(150), `${'p'.repeat(99)}…`],
    ['an emoji at the cut kept whole (code points, never half a surrogate pair)', `${'p'.repeat(98)}🎉🎉🎉`, `${'p'.repeat(98)}🎉…`],
    ['spaces at the cut dropped before the ellipsis', `${'p'.repeat(97)}   tail`, `${'p'.repeat(97)}…`],
    ['a blank name replaced by the value', '   ', '42'],
  ])('%s', (_, name, expected) => {
    const choice = choiceOf(name, '42');
    expect(choice).toEqual({ name: expected, value: '42' });
    expect([...choice.name].length).toBeLessThanOrEqual(100);
  });

  it('keeps the first 25 suggestions', () => {
    const many = Array.from({ length: 30 }, (_, i) => choiceOf(`item ${i}`, String(i)));
    expect(firstChoices(many).map((c) => c.value)).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
  });
});
