import { EventEmitter } from 'node:events';
import { DiscordAPIError } from '@discordjs/rest';
import { CloseCodes, CompressionMethod, WebSocketManager, WebSocketShardEvents, WebSocketShardStatus } from '@discordjs/ws';
import { GatewayDispatchEvents, GatewayIntentBits } from 'discord-api-types/v10';
import { listGatewaySessions, saveGatewaySession } from '../../db/bot/gatewaySessions.js';
import type { Config } from '../../src/core/config.js';
import { dispatchFailures, dispatchLatency, dispatchQueueDepth, dispatchRetries, gatewayEvents, gatewayPaused, gatewaySessionsLost } from './botMetrics.js';
import { dispatchLane } from './dispatchLane.js';
import { DISPATCH_TABLE } from './dispatchTable.js';
import { FATAL_CLOSE_CODES, fatalCloseLine } from './fatalCloses.js';
import { gatewayPositions, type SessionProgress } from './gatewayPositions.js';
import { RECONCILE_MEMBERS } from './handlers/reconcileMembers.js';
import { sharedIdentifyThrottler } from './identifyThrottler.js';
import { memberReconciler, type ReconcilePacing } from './memberReconciler.js';
import { createDispatchQueue } from './dispatchQueue.js';
import { gatewayFlowControl } from './gatewayFlowControl.js';
import type { BotDeps, DispatchHandler } from './handler.js';

/**
 * The intents issue 24 lists. Guild members and message content are privileged: the Developer Portal must enable
 * them, or Discord closes the connection with 4014.
 */
export const BOT_INTENTS =
  GatewayIntentBits.Guilds |
  GatewayIntentBits.GuildMembers |
  GatewayIntentBits.GuildMessages |
  GatewayIntentBits.MessageContent |
  GatewayIntentBits.GuildInvites |
  GatewayIntentBits.GuildModeration;

export { DISALLOWED_INTENTS_MESSAGE } from './fatalCloses.js';

export const SESSION_LIMIT_MESSAGE = (detail: string) =>
  `Discord allows no more gateway sessions now (session_start_limit): ${detail}. Start fewer shards (DISCORD_SHARD_IDS) or wait for the reset.`;

export const BOT_UNAUTHORIZED_MESSAGE = 'Discord refused the bot token (401 Unauthorized): set DISCORD_TOKEN to the bot token from the Developer Portal and restart.';

/** The bot cannot run with this config (not PLATFORM=discord), or Discord ended it for good (fatalCloses.ts). */
export class BotStartError extends Error {
  override name = 'BotStartError';
}

/** The Discord settings the bot connects with; any other platform is refused in one line. */
export function discordPlatformOf(config: Config): Extract<Config['platform'], { kind: 'discord' }> {
  const p = config.platform;
  if (p.kind !== 'discord') throw new BotStartError('npm run bot needs PLATFORM=discord and DISCORD_TOKEN: the local platform has no gateway to connect to.');
  return p;
}

export interface RunningBot {
  /** 'handled' (event name, sequence number, outcome) once each dispatch is done with. */
  events: EventEmitter;
  /** Settles when Discord ends a session for good (4004, 4010-4014) with the one line to print. */
  fatal: Promise<BotStartError>;
  /** Dispatches received and not yet done with. */
  queued(): number;
  /** Each shard of this process: its connection's state and the age of its last dispatch (null before any). */
  shards(): Promise<ShardHealth[]>;
  /**
   * Stops reading the gateway, lets the queue drain (up to `drainMs`), saves each shard's handled position and
   * closes with a resumable code: the next process resumes, and Discord replays what was not handled.
   */
  stop(): Promise<void>;
}

export interface BotOptions {
  /** Replaces DISPATCH_TABLE (tests of the ordering and failures). */
  handlers?: Readonly<Record<string, DispatchHandler>>;
  /** Most dispatches held before the bot stops reading the gateway (back-pressure). */
  maxQueued?: number;
  /** Servers whose dispatches are handled at the same time. */
  concurrency?: number;
  /** How long stop() waits for the queue to drain (default 10 s, within the entrypoint's 15 s per stop step). */
  drainMs?: number;
  /** How often the handled positions are written while running (default 1 s; a crash replays at most that much more). */
  positionFlushMs?: number;
  /** How member reconciliations after a new session are paced (memberReconciler.ts). */
  reconcile?: ReconcilePacing;
}

export interface ShardHealth {
  id: number;
  status: 'idle' | 'connecting' | 'resuming' | 'ready';
  lastEventAgeSeconds: number | null;
}

/**
 * Connects to Discord's gateway with the bot token (@discordjs/ws: heartbeats, identify, resume, reconnect, zlib-stream compression) and
 * hands each dispatch to its handler through the dispatch queue (dispatchQueue.ts): in order per server, retried
 * while the database is out, bounded by pausing the gateway connections.
 */
export async function startBot(config: Config, deps: BotDeps, options: BotOptions = {}): Promise<RunningBot> {
  const p = discordPlatformOf(config);
  const handlers = options.handlers ?? DISPATCH_TABLE;
  const events = new EventEmitter();
  // The process's one REST client (botDeps.ts), shared with the handlers: one set of buckets and one latch.
  const { rest } = deps;
  const flow = gatewayFlowControl();
  let ended = false;
  let stopping = false;
  const positions = gatewayPositions({
    // A session store per bot, started from the positions the last process saved: it resumes them.
    saved: await listGatewaySessions(deps.db),
    save: (record) => saveGatewaySession(deps.db, record),
    onLost(lost) {
      if (ended) return;
      gatewaySessionsLost.inc();
      deps.logger.warn(
        { shardId: lost.shardId, sessionId: lost.sessionId, handledSeq: lost.handled, receivedSeq: lost.received },
        'gateway session lost: Discord did not let it resume, so the dispatches it had not delivered or the bot had not handled are not replayed; members are reconciled on the new session',
      );
    },
    onSaveFailed: (err) => deps.logger.warn({ err }, 'gateway positions not saved; a restart now would replay more (handled once)'),
  });
  const manager = new WebSocketManager({
    token: p.token,
    intents: BOT_INTENTS,
    // Transport compression through Node's own zlib (DISCORD_GATEWAY_COMPRESSION): a busy server's dispatches cost a
    // fraction of the bandwidth, and the bot inflates each one (docs/performance.md, "Gateway ingestion").
    compression: config.bot.compression === 'zlib-stream' ? CompressionMethod.ZlibNative : null,
    rest,
    shardCount: config.bot.shardCount ?? null,
    shardIds: config.bot.shardIds ? ('start' in config.bot.shardIds ? { ...config.bot.shardIds } : [...config.bot.shardIds]) : null,
    buildStrategy: flow.buildStrategy,
    // Shared with every bot process through PostgreSQL: Discord lets max_concurrency shards identify per 5 s.
    buildIdentifyThrottler: async (m) =>
      sharedIdentifyThrottler({ db: deps.db, maxConcurrency: (await m.fetchGatewayInformation()).session_start_limit.max_concurrency, logger: deps.logger }),
    retrieveSessionInfo: positions.retrieve,
    updateSessionInfo: positions.update,
  });

  const reconciler = memberReconciler({
    ...options.reconcile,
    db: deps.db,
    push({ guildId, ref }) {
      const { progress, s, shardId } = ref as ReconcileRef;
      dispatchQueueDepth.inc();
      queue.push({ t: RECONCILE_MEMBERS, s, d: { guild_id: guildId }, shardId, lane: guildId, receivedAt: performance.now(), progress, unbounded: true });
    },
    skip({ ref }) {
      const { progress, s } = ref as ReconcileRef;
      if (progress) positions.done(progress, s);
    },
    onLookupFailed: (err) => deps.logger.warn({ err }, 'member reconciliation waits: the servers to reconcile could not be read'),
  });
  const queue = createDispatchQueue({
    maxQueued: options.maxQueued ?? 1_000,
    concurrency: options.concurrency ?? Math.max(1, config.database.poolMax - 2),
    batchSize: (t) => (handlers[t]?.batch ? (handlers[t].batchSize ?? 1) : 1),
    async handle(run) {
      const handler = handlers[run[0]!.t];
      if (!handler) return;
      if (run.length > 1 && handler.batch) await handler.batch(run.map((item) => item.d), deps);
      else await handler(run[0]!.d, deps);
    },
    onPressure(paused) {
      flow.setPaused(paused);
      gatewayPaused.set(paused ? 1 : 0);
    },
    onDone(item, outcome) {
      dispatchQueueDepth.dec();
      if (item.t === RECONCILE_MEMBERS) reconciler.finished();
      if (item.progress) positions.done(item.progress, item.s);
      if (outcome === 'handled') dispatchLatency.observe({ type: item.t }, (performance.now() - item.receivedAt) / 1000);
      events.emit('handled', item.t, item.s, outcome);
    },
    onFailure(item, err) {
      dispatchFailures.inc({ type: item.t });
      deps.logger.error({ err, event: item.t, seq: item.s, shardId: item.shardId }, 'gateway event handling failed');
    },
    onRetry(run, err, delayMs) {
      dispatchRetries.inc({ type: run[0]!.t });
      deps.logger.warn({ err, event: run[0]!.t, seq: run[0]!.s, count: run.length, delayMs }, 'gateway event handling retried: a dependency is out');
    },
  });
  const lastEventAt = new Map<number, number>();
  manager.on(WebSocketShardEvents.Dispatch, (payload, shardId) => {
    // Stopping: what arrives now is after the position saved, so Discord replays it to the next process.
    if (stopping) return;
    const receivedAt = performance.now();
    lastEventAt.set(shardId, receivedAt);
    gatewayEvents.inc({ type: payload.t });
    // A new session (not a resume): what was sent while the bot was away is lost, so the members of its servers are
    // reconciled (those whose features read them, paced: memberReconciler.ts). READY counts as handled once they are.
    const reconciled = payload.t === GatewayDispatchEvents.Ready ? payload.d.guilds.map((g) => g.id) : [];
    if (payload.t === GatewayDispatchEvents.Ready) deps.botUser.id = payload.d.user.id;
    if (payload.t === GatewayDispatchEvents.GuildCreate && typeof payload.d.member_count === 'number') reconciler.sized(payload.d.id, payload.d.member_count);
    const progress = positions.take(shardId, payload.t, payload.s, 1 + reconciled.length);
    dispatchQueueDepth.inc();
    const urgent = payload.t === GatewayDispatchEvents.InteractionCreate;
    queue.push({ t: payload.t, s: payload.s, d: payload.d, shardId, lane: dispatchLane(payload.t, payload.d), receivedAt, progress, urgent });
    const ref: ReconcileRef = { progress, s: payload.s, shardId };
    if (reconciled.length > 0) reconciler.request(reconciled.map((guildId) => ({ guildId, ref })));
  });
  const flushing = setInterval(() => void positions.flush(), options.positionFlushMs ?? 1_000);
  flushing.unref();

  let resolveFatal: (err: BotStartError) => void = () => undefined;
  const fatal = new Promise<BotStartError>((resolve) => (resolveFatal = resolve));
  manager.on(WebSocketShardEvents.Closed, (code, shardId) => {
    deps.logger.info({ code, shardId }, 'gateway connection closed');
    // The library leaves the shard idle after these: without an exit the process would look alive and do nothing.
    if (ended || !FATAL_CLOSE_CODES.includes(code)) return;
    ended = true;
    void (async () => {
      const line = await fatalCloseLine(code, await manager.getShardCount(), async () => (await manager.fetchGatewayInformation(true)).shards);
      resolveFatal(new BotStartError(line ?? `Discord closed the gateway with ${code}.`));
    })();
  });
  manager.on(WebSocketShardEvents.Ready, (data, shardId) => deps.logger.info({ shardId, sessionId: data.session_id }, 'gateway ready'));
  manager.on(WebSocketShardEvents.Resumed, (shardId) => deps.logger.info({ shardId }, 'gateway session resumed'));
  manager.on(WebSocketShardEvents.Error, (err, shardId) => deps.logger.warn({ err, shardId }, 'gateway error'));

  // A session Discord ended for good rejects the connect as well: `fatal` carries the one line to print.
  await manager.connect().catch((err: unknown) => {
    if (ended) return;
    clearInterval(flushing);
    // GET /gateway/bot comes first: a wrong token is refused there, before any gateway connection.
    if (err instanceof DiscordAPIError && err.status === 401) throw new BotStartError(BOT_UNAUTHORIZED_MESSAGE);
    // The library counts the sessions left (session_start_limit) before identifying any shard.
    if (err instanceof Error && err.message.startsWith('Not enough sessions remaining')) throw new BotStartError(SESSION_LIMIT_MESSAGE(err.message));
    throw err;
  });

  async function stop() {
    stopping = true;
    reconciler.stop();
    positions.closing();
    clearInterval(flushing);
    await within(queue.drained(), options.drainMs ?? 10_000);
    // Past the deadline a handling may still run (an outage, a lock): its dispatch is after the saved position, so
    // the next session gets it again and handles it once. Retries waiting on an outage give up now.
    void queue.stop();
    await positions.flush();
    // Reading again lets the close handshake through; whatever arrives is not taken (stopping).
    flow.setPaused(false);
    // Not 1000 or 1001, which would end the session on Discord's side: the next process resumes it.
    await manager.destroy({ code: CloseCodes.Resuming, reason: 'restarting' });
  }
  let stopped: Promise<void> | null = null;
  return {
    events,
    fatal,
    queued: () => queue.size,
    async shards() {
      const statuses = await manager.fetchStatus();
      const now = performance.now();
      return [...statuses].map(([id, status]) => {
        const last = lastEventAt.get(id);
        return {
          id,
          status: (WebSocketShardStatus[status] ?? 'idle').toLowerCase() as ShardHealth['status'],
          lastEventAgeSeconds: last === undefined ? null : Math.round((now - last) / 100) / 10,
        };
      });
    },
    stop: () => (stopped ??= stop()),
  };
}

/** Where a reconciliation counts: the READY that asked for it. */
interface ReconcileRef {
  progress: SessionProgress | null;
  s: number;
  shardId: number;
}

/** Waits for `work`, or `ms` at most. */
async function within(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
