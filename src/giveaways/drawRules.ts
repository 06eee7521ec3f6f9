import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The draw: weighted sampling without replacement by Efraimidis-Spirakis keys. Each eligible entrant gets
 * u = (first 53 bits of HMAC-SHA256(seed, "<drawNumber>:<userId>") + 0.5) / 2^53 and the key ln(u) / tickets;
 * the highest keys win (ties by user id). The result depends only on the seed, the draw number and the
 * eligible entrants with their tickets, never on their order, so anyone holding the revealed seed and the
 * entries can recompute it; a member's chance of being drawn first is tickets / total tickets.
 */
export const DRAW_ALGORITHM = 'es-weighted-hmac-sha256-v1';

/** A fresh seed from the system's cryptographic random source, and the hash that commits to it. */
export function newSeed(): { seed: string; seedHash: string } {
  const seed = randomBytes(32).toString('hex');
  return { seed, seedHash: seedHashOf(seed) };
}

export const seedHashOf = (seed: string): string => createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex');

const TWO_POW_53 = 2 ** 53;

/** The uniform number in (0, 1) of one entrant in one draw. */
export function uniformFor(seed: Buffer, drawNumber: number, userId: string): number {
  const digest = createHmac('sha256', seed).update(`${drawNumber}:${userId}`).digest();
  const high = digest.readUInt32BE(0) >>> 11; // 21 bits
  const low = digest.readUInt32BE(4); // 32 bits
  return (high * 2 ** 32 + low + 0.5) / TWO_POW_53;
}

export interface Candidate {
  userId: string;
  tickets: number;
}

/**
 * Every candidate in draw order: highest key first, ties by user id. A candidate's key depends only on the
 * seed, the draw number, its user id and its tickets, so removing some candidates leaves the others' order unchanged.
 */
export function rankCandidates<C extends Candidate>(seedHex: string, drawNumber: number, candidates: readonly C[]): C[] {
  const seed = Buffer.from(seedHex, 'hex');
  const keyed = candidates.map((c) => ({ c, key: Math.log(uniformFor(seed, drawNumber, c.userId)) / c.tickets }));
  keyed.sort((a, b) => b.key - a.key || (a.c.userId < b.c.userId ? -1 : a.c.userId > b.c.userId ? 1 : 0));
  return keyed.map((k) => k.c);
}

/** The `count` winners among the candidates (fewer when there are fewer candidates), in draw order. */
export function drawWinners(seedHex: string, drawNumber: number, candidates: Candidate[], count: number): string[] {
  return rankCandidates(seedHex, drawNumber, candidates)
    .slice(0, count)
    .map((c) => c.userId);
}

/** Look-ups made at once while walking the draw order: never more than MAX_BATCH, never fewer than MIN_BATCH (unless fewer remain). */
const MAX_BATCH = 32;
const MIN_BATCH = 4;

export interface LazyDraw {
  winnerIds: string[];
  /** Candidates whose eligibility was checked: all of them when there is a shortfall. */
  checked: number;
}

/**
 * The same winners as `drawWinners` over the eligible candidates only, checking eligibility lazily: walks the
 * draw order of ALL candidates and keeps the first `count` eligible ones. Since the order of the eligible
 * candidates within the full order is their own draw order, the result is identical, but only the candidates
 * ahead of the last winner (plus the rest of its batch) are checked. Each batch is the winners still missing
 * scaled by how many checks each eligible one has taken so far (bounded by MIN_BATCH and MAX_BATCH): few extra
 * look-ups when most entrants qualify, few round trips when most do not.
 */
export async function drawWinnersLazily<C extends Candidate>(
  seedHex: string,
  drawNumber: number,
  candidates: readonly C[],
  count: number,
  areEligible: (batch: C[]) => Promise<boolean[]>,
): Promise<LazyDraw> {
  const order = rankCandidates(seedHex, drawNumber, candidates);
  const winnerIds: string[] = [];
  let checked = 0;
  while (winnerIds.length < count && checked < order.length) {
    const missing = count - winnerIds.length;
    const size = Math.min(MAX_BATCH, Math.max(MIN_BATCH, Math.ceil((missing * (checked + 1)) / (winnerIds.length + 1))));
    const batch = order.slice(checked, checked + size);
    const eligible = await areEligible(batch);
    checked += batch.length;
    for (let i = 0; i < batch.length && winnerIds.length < count; i++) if (eligible[i]) winnerIds.push(batch[i]!.userId);
  }
  return { winnerIds, checked };
}
