import { EventEmitter } from 'node:events';
import { DiscordAPIError } from '@discordjs/rest';
import { CompressionMethod, WebSocketManager, WebSocketShardEvents, WebSocketShardStatus, type SessionInfo } from '@discordjs/ws';
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayIntentBits } from 'discord-api-types/v10';
import type { Config } from '../../src/core/config.js';
import { latchedRest } from '../../src/platform/discord/banLatch.js';
import { dispatchFailures, dispatchLatency, dispatchQueueDepth, dispatchRetries, gatewayEvents, gatewayPaused } from './botMetrics.js';
import { dispatchLane } from './dispatchLane.js';
import { DISPATCH_TABLE } from './dispatchTable.js';
import { RECONCILE_MEMBERS } from './handlers/reconcileMembers.js';
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

export const DISALLOWED_INTENTS_MESSAGE =
  'Discord refused the intents (close code 4014): enable the Server Members and Message Content privileged intents for this bot in the Developer Portal (Bot page), then restart.';

export const SESSION_LIMIT_MESSAGE = (detail: string) =>
  `Discord allows no more gateway sessions now (session_start_limit): ${detail}. Start fewer shards (DISCORD_SHARD_IDS) or wait for the reset.`;

export const BOT_UNAUTHORIZED_MESSAGE = 'Discord refused the bot token (401 Unauthorized): set DISCORD_TOKEN to the bot token from the Developer Portal and restart.';

/** The bot cannot run with this config (not PLATFORM=discord), or Discord ended it for good (4014). */
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
  /** Settles when Discord ends the session for good (4014) with the one line to print. */
  fatal: Promise<BotStartError>;
  /** Dispatches received and not yet done with. */
  queued(): number;
  /** Each shard of this process: its connection's state and the age of its last dispatch (null before any). */
  shards(): Promise<ShardHealth[]>;
  stop(): Promise<void>;
}

export interface BotOptions {
  /** Replaces DISPATCH_TABLE (tests of the ordering and failures). */
  handlers?: Readonly<Record<string, DispatchHandler>>;
  /** Most dispatches held before the bot stops reading the gateway (back-pressure). */
  maxQueued?: number;
  /** Servers whose dispatches are handled at the same time. */
  concurrency?: number;
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
  const rest = latchedRest({ api: p.apiUrl, version: '10', retries: 0, timeout: 15_000 }, deps.latch).setToken(p.token);
  const flow = gatewayFlowControl();
  // The library's default session store is one per Node process: a store per bot keeps two bots (tests, a
  // restart in the same process) from resuming each other's sessions.
  const sessions = new Map<number, SessionInfo>();
  const manager = new WebSocketManager({
    token: p.token,
    intents: BOT_INTENTS,
    // Transport compression through Node's own zlib: a busy server's dispatches cost a fraction of the bandwidth.
    compression: CompressionMethod.ZlibNative,
    rest,
    shardCount: config.bot.shardCount ?? null,
    shardIds: config.bot.shardIds ? ('start' in config.bot.shardIds ? { ...config.bot.shardIds } : [...config.bot.shardIds]) : null,
    buildStrategy: flow.buildStrategy,
    retrieveSessionInfo: (shardId) => sessions.get(shardId) ?? null,
    updateSessionInfo: (shardId, info) => void (info ? sessions.set(shardId, info) : sessions.delete(shardId)),
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
    const receivedAt = performance.now();
    lastEventAt.set(shardId, receivedAt);
    gatewayEvents.inc({ type: payload.t });
    dispatchQueueDepth.inc(payload.t === GatewayDispatchEvents.Ready ? 1 + payload.d.guilds.length : 1);
    queue.push({ t: payload.t, s: payload.s, d: payload.d, shardId, lane: dispatchLane(payload.t, payload.d), receivedAt });
    // A new session (not a resume): what was sent while the bot was away is lost, so each server's members are
    // reconciled, in that server's order.
    if (payload.t === GatewayDispatchEvents.Ready) {
      for (const { id } of payload.d.guilds) queue.push({ t: RECONCILE_MEMBERS, s: payload.s, d: { guild_id: id }, shardId, lane: id, receivedAt });
    }
  });

  let ended = false;
  let resolveFatal: (err: BotStartError) => void = () => undefined;
  const fatal = new Promise<BotStartError>((resolve) => (resolveFatal = resolve));
  const endSession = (err: BotStartError) => {
    ended = true;
    resolveFatal(err);
  };
  manager.on(WebSocketShardEvents.Closed, (code, shardId) => {
    deps.logger.info({ code, shardId }, 'gateway connection closed');
    // The library leaves the shard idle after 4014: without an exit the process would look alive and do nothing.
    if (code === GatewayCloseCodes.DisallowedIntents) endSession(new BotStartError(DISALLOWED_INTENTS_MESSAGE));
  });
  manager.on(WebSocketShardEvents.Ready, (data, shardId) => deps.logger.info({ shardId, sessionId: data.session_id }, 'gateway ready'));
  manager.on(WebSocketShardEvents.Resumed, (shardId) => deps.logger.info({ shardId }, 'gateway session resumed'));
  manager.on(WebSocketShardEvents.Error, (err, shardId) => deps.logger.warn({ err, shardId }, 'gateway error'));

  // A session Discord ended for good rejects the connect as well: `fatal` carries the one line to print.
  await manager.connect().catch((err: unknown) => {
    if (ended) return;
    // GET /gateway/bot comes first: a wrong token is refused there, before any gateway connection.
    if (err instanceof DiscordAPIError && err.status === 401) throw new BotStartError(BOT_UNAUTHORIZED_MESSAGE);
    // The library counts the sessions left (session_start_limit) before identifying any shard.
    if (err instanceof Error && err.message.startsWith('Not enough sessions remaining')) throw new BotStartError(SESSION_LIMIT_MESSAGE(err.message));
    throw err;
  });
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
    async stop() {
      await manager.destroy();
      // Dispatches still waiting on an outage stay unhandled: the next session is identified anew, and the
      // reconciliation after it records the members missed.
      await queue.stop();
    },
  };
}
