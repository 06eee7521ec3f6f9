import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';

// The fake gateway's sessions, kept as strictly as Discord keeps them: a session outlives its connection and can be
// resumed for a while (its dispatches, those sent while nobody was connected included, replayed after the sequence
// the RESUME names); a client's 1000 or 1001 close ends it; past the window a RESUME is refused (op 9, d: false).

/** How long after its connection went a session can still be resumed (Discord does not publish it; minutes). */
export const DEFAULT_RESUME_WINDOW_MS = 120_000;

/** Client close codes that end the session (Discord's docs: any other close code keeps it resumable). */
const ENDING_CLOSE_CODES = new Set([1000, 1001]);

export interface FakeSession {
  id: string;
  shard: [number, number];
  seq: number;
  /** The session's dispatches after READY, for RESUME's replay (Discord does not replay READY). */
  sent: Array<{ s: number; t: string; d: unknown }>;
  socket: WebSocket | null;
  /** When its last connection went (the fake's `now`), null while connected. */
  disconnectedAt: number | null;
  /** Why it can no longer be resumed, null while it can. */
  ended: string | null;
}

export function newSession(shard: [number, number], socket: WebSocket): FakeSession {
  // Unique like Discord's: a session saved by a bot against another fake is unknown here.
  return { id: `fake-session-${randomBytes(6).toString('hex')}`, shard, seq: 0, sent: [], socket, disconnectedAt: null, ended: null };
}

/** Its connection went: a client's 1000/1001 ends the session, anything else (a drop, 4000-4999) keeps it. */
export function detach(session: FakeSession, code: number, byClient: boolean, now: number): void {
  session.socket = null;
  session.disconnectedAt = now;
  if (byClient && ENDING_CLOSE_CODES.has(code)) session.ended = `closed by the client with ${code}`;
}

/** Whether a RESUME of it is taken now; ends it for good once the window passed. */
export function resumable(session: FakeSession, now: number, windowMs: number): boolean {
  if (!session.ended && session.disconnectedAt !== null && now - session.disconnectedAt > windowMs) session.ended = 'resume window passed';
  return session.ended === null;
}

/** The dispatches to replay to a RESUME naming `seq` (null: from the start). */
export function replayAfter(session: FakeSession, seq: number | null): FakeSession['sent'] {
  return session.sent.filter((e) => e.s > (seq ?? 0));
}
