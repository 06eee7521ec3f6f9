import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { addWindowHits, countWindowHit, windowKey } from '../src/requests/rateLimitWindows.js';

interface WindowCount {
  bucket: string;
  windowStart: Date;
  /** The window's count in PostgreSQL (every instance's hits) as of this instance's last write. */
  stored: number;
  /** Hits of this instance in the write under way. */
  sending: number;
  /** Hits of this instance not written yet. */
  pending: number;
  /** The first hit's synchronous write, which later hits of the window wait for. */
  baseline: Promise<void>;
}

/**
 * Counts requests per key and fixed window, shared by every api instance through `rate_limit_counters`.
 * Writing every request's hit at once made all requests of a key queue on one row lock; instead the
 * first hit of a window is written at once (so an instance starting mid-window knows the count so far) and
 * later hits are added in memory and written together at most `flushMs` later. Each write answers the
 * window's total, which brings in the other instances' hits. So a single instance counts exactly, and with
 * several instances a key can get beyond its limit at most what each instance admits in one flush interval
 * before its write brings the total in (docs/api-decisions.md). Counts are never too high: a request is refused only when truly over.
 */
export class KeyHitCounter {
  private readonly windows = new Map<string, WindowCount>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly flushMs: number,
  ) {}

  /** Counts one hit and returns the window's count including it. */
  async hit(bucket: string, windowStart: Date): Promise<number> {
    const id = windowKey(bucket, windowStart);
    const known = this.windows.get(id);
    if (!known) {
      const counted = countWindowHit(this.db, bucket, windowStart);
      const entry: WindowCount = { bucket, windowStart, stored: 0, sending: 0, pending: 0, baseline: Promise.resolve() };
      entry.baseline = counted.then((count) => {
        entry.stored = Math.max(entry.stored, count);
      });
      // A failed first write reaches this caller through `counted` and the waiting hits through `baseline`.
      entry.baseline.catch(() => {});
      this.windows.set(id, entry);
      this.forgetEndedWindows(windowStart);
      try {
        return await counted;
      } catch (err) {
        this.windows.delete(id);
        throw err;
      }
    }
    await known.baseline;
    known.pending += 1;
    this.scheduleFlush();
    return known.stored + known.sending + known.pending;
  }

  /** Writes the pending hits now (also on shutdown); their windows' totals come back with the write. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // A failed write must not stop the ones after it.
    this.writing = this.writing.catch(() => {}).then(() => this.write());
    return this.writing;
  }

  private scheduleFlush(): void {
    this.timer ??= setTimeout(() => void this.flush().catch(() => {}), this.flushMs).unref();
  }

  private async write(): Promise<void> {
    // Only windows with new hits: a write per idle key would grow with the number of keys, not with traffic.
    const entries = [...this.windows.values()].filter((e) => e.pending > 0);
    if (entries.length === 0) return;
    for (const e of entries) {
      e.sending = e.pending;
      e.pending = 0;
    }
    try {
      const totals = await addWindowHits(
        this.db,
        entries.map((e) => ({ bucket: e.bucket, windowStart: e.windowStart, count: e.sending })),
      );
      for (const e of entries) {
        e.stored = totals.get(windowKey(e.bucket, e.windowStart)) ?? e.stored + e.sending;
        e.sending = 0;
      }
    } catch (err) {
      // Not lost: the hits go with the next write.
      for (const e of entries) {
        e.pending += e.sending;
        e.sending = 0;
      }
      if (entries.some((e) => e.pending > 0)) this.scheduleFlush();
      throw err;
    }
  }

  /** Windows before the current one are of no use once written. */
  private forgetEndedWindows(current: Date): void {
    for (const [id, e] of this.windows) {
      if (e.windowStart < current && e.pending === 0 && e.sending === 0) this.windows.delete(id);
    }
  }
}
