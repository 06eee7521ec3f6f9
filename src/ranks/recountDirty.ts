import type { Kysely } from 'kysely';
import { INVITE_RANKS, refreshInviteRankSnapshot } from '../../db/invites/ranks.js';
import { LEVEL_RANKS, refreshRankSnapshot } from '../../db/levels/ranks.js';
import type { Database } from '../../db/schema.js';
import { dropSnapshot, type RankBoard } from '../../db/shared/rankBoards.js';
import { forgetMark, isLargeGuild, markNewLargeGuilds, recountDone, takeDirtyMarks, type RankBoardName } from '../../db/shared/rankMarks.js';
import type { Clock } from '../core/clock.js';
import { INVITE_RANK_SNAPSHOT_THRESHOLD } from '../invites/leaderboard.js';
import { RANK_SNAPSHOT_THRESHOLD } from '../levels/leaderboard.js';
import type { BoardRecount, RankRecountPass } from './ids.js';

/** A snapshotted board: its mark name, tables, the size from which a server gets a snapshot, and its recount. */
interface MarkedBoard {
  name: RankBoardName;
  board: RankBoard;
  threshold: number;
  recount: (db: Kysely<Database>, guildId: string, at: Date) => Promise<unknown>;
}

const BOARDS: MarkedBoard[] = [
  { name: 'levels', board: LEVEL_RANKS, threshold: RANK_SNAPSHOT_THRESHOLD, recount: (db, guildId, at) => refreshRankSnapshot(db, guildId, at) },
  { name: 'invites', board: INVITE_RANKS, threshold: INVITE_RANK_SNAPSHOT_THRESHOLD, recount: (db, guildId, at) => refreshInviteRankSnapshot(db, guildId, at) },
];

/**
 * The dispatcher's pass: each board's servers due a recount (db/shared/rankMarks.ts takeDirtyMarks) are recounted,
 * or, shrunk below the threshold, lose their snapshot (their ranks are counted live again) and their mark. A mark is
 * let go only after its recount committed, so a crash in between leaves it for the next pass.
 */
export async function recountDirtyRanks(db: Kysely<Database>, clock: Clock): Promise<RankRecountPass> {
  const [levels, invites] = [await recountBoard(db, BOARDS[0]!, clock), await recountBoard(db, BOARDS[1]!, clock)];
  return { levels, invites };
}

async function recountBoard(db: Kysely<Database>, b: MarkedBoard, clock: Clock): Promise<BoardRecount> {
  const due = await takeDirtyMarks(db, b.name, b.board);
  const outcome = { recounted: 0, dropped: 0 };
  for (const guildId of due) {
    if (await isLargeGuild(db, b.board, guildId, b.threshold)) {
      await b.recount(db, guildId, clock.now());
      await recountDone(db, b.name, guildId);
      outcome.recounted++;
    } else {
      await dropSnapshot(db, b.board, guildId);
      await forgetMark(db, b.name, guildId);
      outcome.dropped++;
    }
  }
  return outcome;
}

/** Marks the servers that reached a board's threshold and have no mark yet (their first snapshot comes with the wake). */
export async function markGrownServers(db: Kysely<Database>, at: Date): Promise<number> {
  let added = 0;
  for (const b of BOARDS) added += await markNewLargeGuilds(db, b.name, b.board, b.threshold, at);
  return added;
}
