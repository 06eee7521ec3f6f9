import { describe, expect, it } from 'vitest';
import { planReroll } from '../../../src/giveaways/rerollRules.js';

const [a, b, c] = ['1200000000000000001', '1200000000000000002', '1200000000000000003'];

describe('planReroll: a reroll replaces winners, the list never grows past `winners`', () => {
  it.each<[string, { winnerIds: string[]; winnersCount: number }, { count?: number; replaceUserIds?: string[] }, { count: number; replaceUserIds: string[] }]>([
    ['an empty body replaces every winner by as many', { winnerIds: [a], winnersCount: 1 }, {}, { count: 1, replaceUserIds: [a] }],
    ['an empty body after a shortfall fills the list up to winners', { winnerIds: [a], winnersCount: 3 }, {}, { count: 3, replaceUserIds: [a] }],
    ['an empty body with no winners draws a full list', { winnerIds: [], winnersCount: 2 }, {}, { count: 2, replaceUserIds: [] }],
    ['replaced ids alone draw as many', { winnerIds: [a, b, c], winnersCount: 3 }, { replaceUserIds: [b, b] }, { count: 1, replaceUserIds: [b] }],
    ['count alone replaces every winner, drawing fewer', { winnerIds: [a, b], winnersCount: 2 }, { count: 1 }, { count: 1, replaceUserIds: [a, b] }],
    ['nobody replaced fills the places a shortfall left', { winnerIds: [a], winnersCount: 2 }, { replaceUserIds: [] }, { count: 1, replaceUserIds: [] }],
  ])('%s', (_case, giveaway, ask, plan) => {
    expect(planReroll(giveaway, ask)).toEqual({ plan });
  });

  it.each<[string, { winnerIds: string[]; winnersCount: number }, { count?: number; replaceUserIds?: string[] }, string, string]>([
    ['more new winners than places', { winnerIds: [a], winnersCount: 1 }, { count: 2 }, 'TOO_MANY_WINNERS', 'The giveaway has 1 winner at most: this reroll may draw 1 to 1, not 2.'],
    ['more than the replaced free', { winnerIds: [a, b], winnersCount: 2 }, { replaceUserIds: [a], count: 2 }, 'TOO_MANY_WINNERS', 'The giveaway has 2 winners at most: this reroll may draw 1 to 1, not 2.'],
    ['nobody replaced and no place free', { winnerIds: [a], winnersCount: 1 }, { replaceUserIds: [] }, 'TOO_MANY_WINNERS', 'The giveaway has 1 winner at most and every place is taken: replace some of them (replaceUserIds).'],
    ['a replaced id that is no winner', { winnerIds: [a], winnersCount: 1 }, { replaceUserIds: [a, c] }, 'NOT_A_WINNER', `Not among the current winners: ${c}.`],
  ])('refuses %s', (_case, giveaway, ask, code, message) => {
    expect(planReroll(giveaway, ask)).toEqual({ refusal: { code, message } });
  });
});
