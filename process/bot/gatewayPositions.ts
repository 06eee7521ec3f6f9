import type { SessionInfo } from '@discordjs/ws';
import type { GatewaySessionRecord } from '../../db/bot/gatewaySessions.js';

/** One gateway session's progress: which of its dispatches are still queued, and what is saved of it. */
export interface SessionProgress {
  readonly shardId: number;
  readonly sessionId: string;
  readonly shardCount: number;
  readonly resumeUrl: string;
  /** Nothing is saved of the session before its handled position reaches this (a new session: its READY). */
  readonly floor: number;
  /** The highest sequence taken into the queue. */
  received: number;
  /** Queued dispatches by sequence (several at one sequence: READY and its reconciliations). */
  readonly pending: Map<number, number>;
  /** The position last written, -1 before any. */
  saved: number;
}

/**
 * The highest sequence below which every dispatch of the session is done with (handled, or given up after a
 * failure that is not an outage). Sequences enter `pending` in increasing order (Discord numbers a session's
 * dispatches one by one and the library resumes after the last one received), so the first key is the lowest.
 */
export function handledPosition(p: SessionProgress): number {
  for (const s of p.pending.keys()) return s - 1;
  return p.received;
}

export interface GatewayPositions {
  /** The manager's `retrieveSessionInfo`: the library's own session (sequence received), else the saved one. */
  retrieve(shardId: number): SessionInfo | null;
  /** The manager's `updateSessionInfo`. Dropping a session while running means Discord ended it: `onLost`. */
  update(shardId: number, info: SessionInfo | null): void;
  /** `count` queue items at sequence `s` of the shard's current session; null outside a session. */
  take(shardId: number, t: string, s: number, count: number): SessionProgress | null;
  /** One of them is done with. */
  done(progress: SessionProgress, s: number): void;
  /** Writes each current session whose handled position moved. */
  flush(): Promise<void>;
  /** From now on a session dropped is the bot's own close, not a loss. */
  closing(): void;
}

export interface GatewayPositionsOptions {
  saved: GatewaySessionRecord[];
  save(record: GatewaySessionRecord): Promise<void>;
  /** Discord ended a session the bot held (a refused resume, a non-resumable close): what followed is not replayed. */
  onLost(lost: { shardId: number; sessionId: string; handled: number | null; received: number }): void;
  onSaveFailed(err: unknown): void;
}

/**
 * The bot's gateway sessions. While the process lives, the library resumes from the last sequence *received*: the
 * dispatches received and not yet handled are in the queue. What a restart or a crash can resume from is the
 * position *handled*, which this keeps per session and writes to PostgreSQL (`flush`): the next process starts from
 * the saved sessions, so Discord replays every dispatch not yet handled.
 */
export function gatewayPositions(o: GatewayPositionsOptions): GatewayPositions {
  const sessions = new Map<number, SessionInfo>();
  const current = new Map<number, SessionProgress>();
  for (const r of o.saved) {
    sessions.set(r.shardId, { shardId: r.shardId, shardCount: r.shardCount, sessionId: r.sessionId, resumeURL: r.resumeUrl, sequence: r.seq });
    current.set(r.shardId, progressOf(r.shardId, r.sessionId, r.shardCount, r.resumeUrl, r.seq, r.seq, r.seq));
  }
  let closed = false;
  let writing: Promise<void> = Promise.resolve();

  async function writeMoved() {
    for (const p of current.values()) {
      const position = handledPosition(p);
      if (position < p.floor || position <= p.saved) continue;
      try {
        await o.save({ shardId: p.shardId, shardCount: p.shardCount, sessionId: p.sessionId, resumeUrl: p.resumeUrl, seq: position });
        p.saved = position;
      } catch (err) {
        o.onSaveFailed(err);
      }
    }
  }

  return {
    retrieve: (shardId) => sessions.get(shardId) ?? null,
    update(shardId, info) {
      const held = sessions.get(shardId);
      if (info) return void sessions.set(shardId, info);
      sessions.delete(shardId);
      if (!held || closed) return;
      const p = current.get(shardId);
      o.onLost({ shardId, sessionId: held.sessionId, handled: p?.sessionId === held.sessionId ? handledPosition(p) : null, received: held.sequence });
    },
    take(shardId, t, s, count) {
      const info = sessions.get(shardId);
      if (!info) return null;
      let p = current.get(shardId);
      if (p?.sessionId !== info.sessionId) {
        // A new session starts at its READY: saved only once READY and its reconciliations are handled.
        const before = s - 1;
        p = progressOf(shardId, info.sessionId, info.shardCount, info.resumeURL, before, t === 'READY' ? s : before, -1);
        current.set(shardId, p);
      }
      p.received = Math.max(p.received, s);
      p.pending.set(s, (p.pending.get(s) ?? 0) + count);
      return p;
    },
    done(p, s) {
      const left = (p.pending.get(s) ?? 1) - 1;
      if (left > 0) p.pending.set(s, left);
      else p.pending.delete(s);
    },
    flush() {
      writing = writing.then(writeMoved);
      return writing;
    },
    closing() {
      closed = true;
    },
  };
}

function progressOf(shardId: number, sessionId: string, shardCount: number, resumeUrl: string, received: number, floor: number, saved: number): SessionProgress {
  return { shardId, sessionId, shardCount, resumeUrl, floor, received, pending: new Map(), saved };
}
