/** invites = max(0, verified + bonus): what milestones and the leaderboard use. */
export const invitesOf = (verified: number, bonus: number): number => Math.max(0, verified + bonus);

/**
 * Competition ranks ("1224") for one page of scores sorted high to low: equal scores share a rank, the next
 * distinct score takes its position. `firstRank` is the rank of the page's first row (inviters above it + 1),
 * `offset` the position of that row in the whole board (0-based).
 */
export function pageRanks(scores: readonly number[], offset: number, firstRank: number): number[] {
  const ranks: number[] = [];
  scores.forEach((score, i) => {
    if (i === 0) ranks.push(firstRank);
    else ranks.push(score === scores[i - 1] ? ranks[i - 1]! : offset + i + 1);
  });
  return ranks;
}
