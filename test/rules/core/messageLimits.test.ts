import { describe, expect, it } from 'vitest';
import { clip, embedChars, fitMessage, mentionList, mentionedUsers } from '../../../src/core/messageLimits.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(200000000000000000n + BigInt(i)));

describe('clip', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['eleven char', 10, 'eleven ch…'],
    ['abc', 0, ''],
  ])('%j within %i -> %j', (text, max, expected) => {
    expect(clip(text, max)).toBe(expected);
  });

  it('never cuts a surrogate pair in half', () => {
    const clipped = clip('abcd🎉🎉', 6);
    expect(clipped).toBe('abcd…');
    expect(clipped.length).toBeLessThanOrEqual(6);
  });
});

describe('mentionList', () => {
  it('writes every mention when they fit', () => {
    expect(mentionList(ids(2), 100)).toEqual({ text: `<@${ids(2)[0]}>, <@${ids(2)[1]}>`, listed: ids(2) });
  });

  it('ends with "and N more" past the room given, listing as many as fit', () => {
    const all = ids(50);
    const { text, listed } = mentionList(all, 200);
    expect(text.length).toBeLessThanOrEqual(200);
    expect(text).toMatch(/ and \d+ more$/);
    expect(text).toBe(`${listed.map((id) => `<@${id}>`).join(', ')} and ${50 - listed.length} more`);
    expect(listed).toEqual(all.slice(0, listed.length));
    expect(listed.length).toBe(8);
  });

  it('with room for no mention at all, a count', () => {
    expect(mentionList(ids(3), 12)).toEqual({ text: '3 members', listed: [] });
  });
});

describe('fitMessage', () => {
  it('keeps content within 2,000 characters and names the users it mentions as the only pings', () => {
    const [a, b] = ids(2);
    const fitted = fitMessage(`<@${a}> <@!${b}> <@${a}> <@&300000000000000000> @everyone ${'x'.repeat(2000)}`);
    expect(fitted.content).toHaveLength(2000);
    expect(fitted.content.endsWith('…')).toBe(true);
    expect(fitted.mentions).toEqual({ userIds: [a, b], roleIds: [], everyone: false });
    expect(fitMessage('hi', { mentions: { userIds: ids(120), roleIds: ['300000000000000000'] } }).mentions).toEqual({
      userIds: ids(100),
      roleIds: ['300000000000000000'],
      everyone: false,
    });
  });

  it('fits each embed part within its limit, 25 fields and 10 embeds', () => {
    const { embeds } = fitMessage('', {
      embeds: [
        { title: 't'.repeat(300) },
        { footer: 'f'.repeat(3000), description: 'd'.repeat(5000).slice(0, 100) },
        { fields: Array.from({ length: 30 }, () => ({ name: 'n', value: 'v' })) },
        { fields: [{ name: 'n'.repeat(300), value: 'v'.repeat(1100) }] },
        ...Array.from({ length: 8 }, () => ({ color: 1 })),
      ],
    });
    expect(embeds).toHaveLength(10);
    expect([embeds![0]!.title!.length, embeds![1]!.footer!.length, embeds![2]!.fields!.length]).toEqual([256, 2048, 25]);
    expect(embeds![3]!.fields!.map((f) => [f.name.length, f.value.length])).toEqual([[256, 1024]]);
    const { embeds: long } = fitMessage('', { embeds: [{ description: 'd'.repeat(5000) }] });
    expect(long![0]!.description).toHaveLength(4096);
  });

  it('shortens the last embeds until all of them hold 6,000 characters at most, the first ones untouched', () => {
    const first = { title: 'Giveaway', description: 'd'.repeat(4000), fields: [{ name: 'Host', value: 'someone' }] };
    const { embeds } = fitMessage('', { embeds: [first, { description: 'e'.repeat(3000), fields: [{ name: 'a', value: 'b' }] }] });
    expect(embeds![0]).toEqual(first);
    expect(embeds!.reduce((n, e) => n + embedChars(e), 0)).toBe(6000);
    expect(embeds![1]!.description!.endsWith('…')).toBe(true);
  });

  it('leaves a message within every limit as it is', () => {
    const options = { embeds: [{ title: 'T', description: 'D', color: 1, footer: 'F', timestamp: new Date(0) }], mentions: { userIds: [], roleIds: [], everyone: true } };
    expect(fitMessage('hello', options)).toEqual({ content: 'hello', embeds: options.embeds, mentions: options.mentions });
  });
});

describe('mentionedUsers', () => {
  it('finds user mentions, not roles or channels', () => {
    expect(mentionedUsers('<@200000000000000001> <#200000000000000002> <@&200000000000000003> <@!200000000000000004>')).toEqual([
      '200000000000000001',
      '200000000000000004',
    ]);
  });
});
