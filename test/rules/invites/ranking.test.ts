import { describe, expect, it } from 'vitest';
import { invitesOf, pageRanks } from '../../../src/invites/ranking.js';

describe('invitesOf', () => {
  it('is verified + bonus, never below 0', () => {
    expect(invitesOf(3, 2)).toBe(5);
    expect(invitesOf(3, -2)).toBe(1);
    expect(invitesOf(3, -10)).toBe(0);
    expect(invitesOf(0, 0)).toBe(0);
  });
});

describe('pageRanks', () => {
  it('gives ties one rank and the next score its position (competition ranking)', () => {
    expect(pageRanks([9, 7, 7, 5, 5, 5, 1], 0, 1)).toEqual([1, 2, 2, 4, 4, 4, 7]);
  });

  it('continues a tie that began on an earlier page', () => {
    // positions 10.. (offset 10); the first row ties with rows above it, whose first sits at rank 8
    expect(pageRanks([4, 4, 3], 10, 8)).toEqual([8, 8, 13]);
  });

  it('is empty for an empty page', () => {
    expect(pageRanks([], 25, 1)).toEqual([]);
  });
});
