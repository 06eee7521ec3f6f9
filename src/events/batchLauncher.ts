import { setTimeout as sleep } from 'node:timers/promises';
import { launchBatch, MAX_BATCH_EVENTS, type BatchDeps } from './batchLaunch.js';

/** Batches being claimed and started at once by one launcher (of different guilds). */
const LAUNCHES_AT_ONCE = 4;
/**
 * Batches of one guild that are not full start at least this far apart: a busy guild costs Temporal at most
 * 10 such batch workflows a second from one process, and an event of a quiet guild leaves at once. A full
 * batch (MAX_BATCH_EVENTS) leaves without waiting: its workflow costs a hundredth of a task per event, so the
 * interval would only cap the guild's events per second (at 1,000 from one process), not spare Temporal.
 */
export const GUILD_BATCH_INTERVAL_MS = 100;

interface Waiting {
  eventId: string;
  done(err?: unknown): void;
}

/**
 * Groups the events committed in one process into batches without a fixed timer: an event of a guild whose
 * last batch left more than 100 ms ago leaves at the end of the current tick, with the guild's other events
 * handed over in that tick (a batch of one at low load); the events committed meanwhile leave together in the
 * guild's next batch, so batches grow with the load, and as soon as they fill one.
 */
export class BatchLauncher {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly lastLaunchAt = new Map<string, number>();
  private running = 0;
  private wakeUp: Promise<void> | undefined;
  private fillQueued = false;

  constructor(private readonly deps: BatchDeps) {}

  /** Resolves once the events' batch started; rejects when its claim or start failed (the relay retries it). */
  launch(events: Array<{ id: string; guildId: string }>): Promise<void> {
    const started = events.map(
      (e) =>
        new Promise<void>((resolve, reject) => {
          const queue = this.waiting.get(e.guildId) ?? [];
          queue.push({ eventId: e.id, done: (err) => (err === undefined ? resolve() : reject(err)) });
          this.waiting.set(e.guildId, queue);
        }),
    );
    if (!this.fillQueued) {
      this.fillQueued = true;
      queueMicrotask(() => {
        this.fillQueued = false;
        this.fillSlots();
      });
    }
    return Promise.all(started).then(() => undefined);
  }

  private fillSlots(): void {
    const now = performance.now();
    for (const [guildId, at] of this.lastLaunchAt) if (now - at >= GUILD_BATCH_INTERVAL_MS) this.lastLaunchAt.delete(guildId);
    for (const [guildId, queue] of this.waiting) {
      if (this.running >= LAUNCHES_AT_ONCE) return;
      if (this.lastLaunchAt.has(guildId) && queue.length < MAX_BATCH_EVENTS) continue;
      const batch = queue.splice(0, MAX_BATCH_EVENTS);
      if (queue.length === 0) this.waiting.delete(guildId);
      this.lastLaunchAt.set(guildId, now);
      this.running++;
      launchBatch(this.deps, guildId, batch.map((w) => w.eventId)).then(
        () => this.settle(batch),
        (err: unknown) => this.settle(batch, err ?? new Error('batch launch failed')),
      );
    }
    // Guilds waiting out their interval: look again when the earliest one may leave.
    if (this.waiting.size > 0 && this.running < LAUNCHES_AT_ONCE && !this.wakeUp) {
      const earliest = Math.min(...[...this.waiting.keys()].map((g) => this.lastLaunchAt.get(g) ?? now));
      this.wakeUp = sleep(Math.max(1, earliest + GUILD_BATCH_INTERVAL_MS - now)).then(() => {
        this.wakeUp = undefined;
        this.fillSlots();
      });
    }
  }

  private settle(batch: Waiting[], err?: unknown): void {
    this.running--;
    for (const w of batch) w.done(err);
    this.fillSlots();
  }
}

// One launcher per database and Temporal client pair, so that every caller in a process shares its batches
// (and tests, each with their own pair, their own launcher).
const launchers = new WeakMap<object, WeakMap<object, BatchLauncher>>();

export function batchLauncherFor(deps: BatchDeps): BatchLauncher {
  const byClient = launchers.get(deps.db) ?? new WeakMap<object, BatchLauncher>();
  launchers.set(deps.db, byClient);
  let launcher = byClient.get(deps.temporal);
  if (!launcher) byClient.set(deps.temporal, (launcher = new BatchLauncher(deps)));
  return launcher;
}
