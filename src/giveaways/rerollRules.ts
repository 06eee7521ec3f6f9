/**
 * What a reroll asks for. Omitted fields take their defaults from the winners when the draw is made (not when
 * the request arrives), so two rerolls in a row each replace the winners the one before left.
 */
export interface RerollAsk {
  /** New winners to draw. Default: as many as bring the list back to the giveaway's `winners`. */
  count?: number;
  /** Current winners who lose their win. Default: every current winner. */
  replaceUserIds?: string[];
}

export interface RerollPlan {
  count: number;
  replaceUserIds: string[];
}

export type RerollRefusalCode = 'NOT_A_WINNER' | 'TOO_MANY_WINNERS';

const winnersNoun = (n: number) => (n === 1 ? '1 winner' : `${n} winners`);

/**
 * A reroll replaces winners, as GiveawayBot and discord-giveaways do: the winners left after the replaced ones
 * lose their win, plus the new ones, never number more than the giveaway's `winners`.
 */
export function planReroll(
  g: { winnerIds: string[]; winnersCount: number },
  ask: RerollAsk,
): { plan: RerollPlan } | { refusal: { code: RerollRefusalCode; message: string } } {
  const replaceUserIds = ask.replaceUserIds ? [...new Set(ask.replaceUserIds)] : g.winnerIds;
  const unknown = replaceUserIds.filter((id) => !g.winnerIds.includes(id));
  if (unknown.length > 0) return { refusal: { code: 'NOT_A_WINNER', message: `Not among the current winners: ${unknown.join(', ')}.` } };
  const kept = g.winnerIds.length - replaceUserIds.length;
  const room = Math.max(0, g.winnersCount - kept);
  if (room === 0) {
    const message = `The giveaway has ${winnersNoun(g.winnersCount)} at most and every place is taken: replace some of them (replaceUserIds).`;
    return { refusal: { code: 'TOO_MANY_WINNERS', message } };
  }
  const count = ask.count ?? room;
  if (count > room) {
    const message = `The giveaway has ${winnersNoun(g.winnersCount)} at most: this reroll may draw 1 to ${room}, not ${count}.`;
    return { refusal: { code: 'TOO_MANY_WINNERS', message } };
  }
  return { plan: { count, replaceUserIds } };
}
