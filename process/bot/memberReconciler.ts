import type { Kysely } from 'kysely';
import { guildsWithAnyFeature } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import type { Feature } from '../../src/core/features.js';

/** The features that read a server's member list: members.joined/left events, and invite credit lost on leaves. */
export const MEMBER_LIST_FEATURES: readonly Feature[] = ['members', 'invites'];

/** Discord's largest page of `GET /guilds/{id}/members`. */
const MEMBERS_PER_PAGE = 1_000;
/** Servers whose features are looked up in one query. */
const LOOKUP_BATCH = 200;

/** One server to reconcile, for the new session (its READY) that asked for it. */
export interface ReconcileRequest {
  guildId: string;
  /** Anything the caller needs back (the session's progress): handed to `push` or `skip` as it was given. */
  ref: unknown;
}

export interface ReconcilePacing {
  /** Servers reconciled at the same time (default 2). */
  concurrency?: number;
  /** The share of Discord's 50 requests/s the member lists may take (default 10: a fifth). */
  requestsPerSecond?: number;
}

export interface MemberReconcilerOptions extends ReconcilePacing {
  db: Kysely<Database>;
  /** Puts the server's reconciliation in its lane of the dispatch queue (unbounded: it never pauses the gateway). */
  push(request: ReconcileRequest): void;
  /** The server needs none (no feature reads members), or a newer session asked again: it is done with as it is. */
  skip(request: ReconcileRequest): void;
  onLookupFailed(err: unknown): void;
  wait?: (ms: number) => Promise<void>;
}

export interface MemberReconciler {
  /** A new session's servers. A server already waiting is asked for once, by the newer session. */
  request(requests: ReconcileRequest[]): void;
  /** GUILD_CREATE's member_count: how many pages the server's list takes, for the pacing. */
  sized(guildId: string, memberCount: number): void;
  /** One pushed reconciliation is done with (handled or failed): the next may go. */
  finished(): void;
  /** Stops pushing; what still waits is left (the saved position is before it, so the next session asks again). */
  stop(): void;
}

/**
 * Member reconciliation after a new gateway session, paced so a new session is not a storm of REST requests: only
 * servers with a feature that reads members; `concurrency` servers at a time; and a server's pages (from its
 * member_count) within `requestsPerSecond`, so the member lists leave most of Discord's global limit to the rest.
 * The reconciliation itself runs in the server's lane of the dispatch queue (in order with its joins and leaves),
 * but outside the queue's bound.
 */
export function memberReconciler(o: MemberReconcilerOptions): MemberReconciler {
  const wait = o.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  const concurrency = o.concurrency ?? 2;
  const perSecond = o.requestsPerSecond ?? 10;
  const pending = new Map<string, ReconcileRequest>();
  const memberCounts = new Map<string, number>();
  let inFlight = 0;
  let freed: (() => void) | null = null;
  let nextAt = 0;
  let running = false;
  let stopped = false;

  async function slot() {
    while (inFlight >= concurrency && !stopped) await new Promise<void>((resolve) => (freed = resolve));
  }

  /** Waits until the budget holds this server's pages, then spends them. */
  async function budget(guildId: string) {
    const pages = Math.max(1, Math.ceil((memberCounts.get(guildId) ?? 0) / MEMBERS_PER_PAGE));
    const now = performance.now();
    const start = Math.max(now, nextAt);
    nextAt = start + (pages * 1000) / perSecond;
    if (start > now) await wait(start - now);
  }

  async function featured(batch: ReconcileRequest[]): Promise<Set<string> | null> {
    try {
      return new Set(await guildsWithAnyFeature(o.db, batch.map((r) => r.guildId), MEMBER_LIST_FEATURES));
    } catch (err) {
      o.onLookupFailed(err);
      await wait(1_000);
      return null;
    }
  }

  async function run() {
    while (!stopped && pending.size > 0) {
      const batch = [...pending.values()].slice(0, LOOKUP_BATCH);
      const using = await featured(batch);
      if (!using) continue;
      // Servers needing none are done with at once, before the others wait their turn.
      for (const r of batch.filter((x) => !using.has(x.guildId) && pending.get(x.guildId) === x)) {
        pending.delete(r.guildId);
        o.skip(r);
      }
      for (const r of batch.filter((x) => using.has(x.guildId))) {
        if (pending.get(r.guildId) !== r) continue;
        await slot();
        await budget(r.guildId);
        // Asked again meanwhile: the newer request is in `pending`, taken in a later batch.
        if (stopped || pending.get(r.guildId) !== r) continue;
        pending.delete(r.guildId);
        inFlight += 1;
        o.push(r);
      }
    }
  }

  return {
    request(requests) {
      for (const r of requests) {
        const older = pending.get(r.guildId);
        pending.set(r.guildId, r);
        if (older) o.skip(older);
      }
      if (running || stopped) return;
      running = true;
      void run().finally(() => (running = false));
    },
    sized: (guildId, memberCount) => void memberCounts.set(guildId, memberCount),
    finished() {
      inFlight -= 1;
      const wake = freed;
      freed = null;
      wake?.();
    },
    stop() {
      stopped = true;
      freed?.();
    },
  };
}
