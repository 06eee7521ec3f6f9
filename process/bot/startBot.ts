import { EventEmitter } from 'node:events';
import { DiscordAPIError, REST } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents, type SessionInfo } from '@discordjs/ws';
import { GatewayCloseCodes, GatewayIntentBits } from 'discord-api-types/v10';
import type { Config } from '../../src/core/config.js';
import { DISPATCH_TABLE } from './dispatchTable.js';
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
  /** 'handled' (event name, sequence number) after each dispatch's handling, in order. */
  events: EventEmitter;
  /** Settles when Discord ends the session for good (4014) with the one line to print. */
  fatal: Promise<BotStartError>;
  stop(): Promise<void>;
}

export interface BotOptions {
  /** Replaces DISPATCH_TABLE (tests of the ordering and failures). */
  handlers?: Readonly<Record<string, DispatchHandler>>;
}

/**
 * Connects to Discord's gateway with the bot token (@discordjs/ws: heartbeats, identify, resume, reconnect) and
 * hands each dispatch to its handler, one at a time in the order received, so a join is recorded before the
 * leave that follows it. A failing handler is logged and the next dispatch goes on (retries with backoff: a
 * later slice of issue 24).
 */
export async function startBot(config: Config, deps: BotDeps, options: BotOptions = {}): Promise<RunningBot> {
  const p = discordPlatformOf(config);
  const handlers = options.handlers ?? DISPATCH_TABLE;
  const events = new EventEmitter();
  const rest = new REST({ api: p.apiUrl, version: '10', retries: 0, timeout: 15_000 }).setToken(p.token);
  // The library's default session store is one per Node process: a store per bot keeps two bots (tests, a
  // restart in the same process) from resuming each other's sessions.
  const sessions = new Map<number, SessionInfo>();
  const manager = new WebSocketManager({
    token: p.token,
    intents: BOT_INTENTS,
    rest,
    retrieveSessionInfo: (shardId) => sessions.get(shardId) ?? null,
    updateSessionInfo: (shardId, info) => void (info ? sessions.set(shardId, info) : sessions.delete(shardId)),
  });

  let queue: Promise<void> = Promise.resolve();
  manager.on(WebSocketShardEvents.Dispatch, (payload, shardId) => {
    const handler = handlers[payload.t];
    queue = queue.then(async () => {
      if (handler) {
        await handler(payload.d, deps).catch((err: unknown) =>
          deps.logger.error({ err, event: payload.t, seq: payload.s, shardId }, 'gateway event handling failed'),
        );
      }
      events.emit('handled', payload.t, payload.s);
    });
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
    throw err;
  });
  return {
    events,
    fatal,
    async stop() {
      await manager.destroy();
      await queue;
    },
  };
}
