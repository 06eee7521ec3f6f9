import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayCloseCodes, GatewayOpcodes } from 'discord-api-types/v10';
import { WebSocketServer, type WebSocket } from 'ws';
import { focusedTypeOf } from './autocompleteRules.js';
import { DEFAULT_RESUME_WINDOW_MS, detach, newSession, replayAfter, resumable, type FakeSession } from './gatewaySessions.js';
import { guildCreatePayload } from './guildEvents.js';
import { zlibStreamOf } from './zlibStream.js';
import type { FakeDiscord } from './server.js';

// A fake of Discord's gateway v10 on the HTTP fake's port: @discordjs/ws takes the gateway's address from
// `GET /gateway/bot` only (TOOLCHAIN.md pitfall 13), so the HTTP fake answers it with this server's ws:// URL
// and READY's resume_gateway_url points back here too. Sessions are kept as strictly as Discord keeps them
// (gatewaySessions.ts), and the close codes that end a bot (4004, 4011) come on demand. As on Discord, READY lists the
// shard's servers as unavailable and a GUILD_CREATE of each follows it (`large` past the identify's large_threshold,
// its members then only the bot's own); an IDENTIFY within 5 s of another of its rate-limit key
// (shard id % max_concurrency) is answered op 9, invalid session.

export interface FakeGatewayOptions {
  heartbeatIntervalMs?: number;
  /** Intents the application may not use (privileged ones not enabled): an IDENTIFY asking for one is closed with 4014. */
  disallowedIntents?: number;
  shards?: number;
  /** What `GET /gateway/bot` says of the sessions left (default: 1000 of 1000). */
  sessionStartLimit?: { total: number; remaining: number };
  /** How long a session stays resumable after its connection went (default: DEFAULT_RESUME_WINDOW_MS). */
  resumeWindowMs?: number;
  /** The fake's clock for that window and the identify window (default: the HTTP fake's): a test moves it instead of waiting. */
  now?: () => number;
  /** `session_start_limit.max_concurrency`: identifies per 5 s, one per rate-limit key (default 1, most bots'). */
  maxConcurrency?: number;
}

export interface GatewayIdentify {
  token: string;
  intents: number;
  shard?: [number, number];
  large_threshold?: number;
}

/** Discord's window for identifies of one rate-limit key. */
export const IDENTIFY_WINDOW_MS = 5_000;
/** The identify's `large_threshold` when it names none (Discord's default). */
const DEFAULT_LARGE_THRESHOLD = 50;

export interface FakeGateway {
  /** `ws://host:port`, what `GET /gateway/bot` answers. */
  url: string;
  identifies: GatewayIdentify[];
  /** IDENTIFYs answered op 9 because another of their rate-limit key came less than 5 s before. */
  refusedIdentifies: GatewayIdentify[];
  resumes: Array<{ sessionId: string; seq: number | null }>;
  /** Every connection in order, and whether it asked for zlib-stream transport compression. */
  connections: Array<{ compressed: boolean }>;
  /** Bytes of payload sent to clients so far, as they crossed the wire: deflated on compressed connections. */
  bytesSent(): number;
  /**
   * 'identify', 'ready' (session id), 'resume', 'invalid-session' (session id, why), 'heartbeat', 'connection' and
   * 'closed' (the close code), as they happen.
   */
  events: EventEmitter;
  /** Sends a dispatch on a shard's latest session (kept for replay while it is disconnected); returns its sequence number. */
  dispatch(t: string, d: unknown, shardId?: number): number;
  /** A shard's latest session: its id, last sequence, and why it ended (null while resumable). */
  sessionOf(shardId?: number): { id: string; seq: number; ended: string | null } | undefined;
  /** Asks the client to reconnect and resume (opcode 7). */
  reconnect(): void;
  /** Closes the current connection with a close code (4000 resumable, 4010, 4012, 4013 ...). */
  closeWith(code: number, reason?: string): void;
  /** Drops the current connection without a close frame (a network cut). */
  drop(): void;
  /** The bot's token is reset in the Developer Portal: every connection closed with 4004, and so is every later IDENTIFY or RESUME. */
  revokeToken(): void;
  /** The bot outgrew its shards: GET /gateway/bot recommends `shards`; sessions with fewer are closed with 4011, and so are IDENTIFYs. */
  requireShards(shards: number): void;
  connected(): boolean;
}

/** Serves the gateway on the fake's HTTP server and answers `GET /gateway/bot` with its address. */
export function attachFakeGateway(fake: FakeDiscord, options: FakeGatewayOptions = {}): FakeGateway {
  const address = fake.apiUrl.replace(/^http/, 'ws').replace(/\/api$/, '');
  const wss = new WebSocketServer({ noServer: true });
  const events = new EventEmitter();
  const identifies: GatewayIdentify[] = [];
  const resumes: FakeGateway['resumes'] = [];
  const now = options.now ?? fake.state.now;
  const maxConcurrency = options.maxConcurrency ?? 1;
  const refusedIdentifies: GatewayIdentify[] = [];
  // When each rate-limit key last let a shard identify.
  const identifiedAt = new Map<number, number>();
  const resumeWindowMs = options.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS;
  // Every session by id (a RESUME may name any), and the latest of each shard (an IDENTIFY without a shard is shard 0).
  const sessions = new Map<string, FakeSession>();
  const latestOf = new Map<number, FakeSession>();
  // Connections the fake closed itself: their close code is the fake's, not a client's ending its session.
  const closedByServer = new WeakSet<WebSocket>();
  let shards = options.shards ?? 1;
  let tokenRevoked = false;

  fake.route('GET', '/gateway/bot', () => ({
    status: 200,
    body: { url: address, shards, session_start_limit: { total: 1000, remaining: 1000, ...options.sessionStartLimit, reset_after: 86_400_000, max_concurrency: maxConcurrency } },
  }));
  // A connection asking for `compress=zlib-stream` gets every payload through one deflate context of its own, each
  // payload ended by a sync flush, as Discord sends them.
  const connections: Array<{ compressed: boolean }> = [];
  const compressors = new WeakMap<WebSocket, (text: string) => void>();
  let bytesSent = 0;
  const sendBytes = (ws: WebSocket, message: string | Buffer) => {
    bytesSent += typeof message === 'string' ? Buffer.byteLength(message) : message.length;
    ws.send(message);
  };
  fake.httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const compress = new URL(req.url ?? '/', 'http://fake').searchParams.get('compress') === 'zlib-stream';
    wss.handleUpgrade(req, socket, head, (ws) => {
      connections.push({ compressed: compress });
      if (compress) compressors.set(ws, zlibStreamOf(ws, sendBytes));
      onConnection(ws);
    });
  });
  fake.httpServer.on('close', () => wss.close());

  const send = (ws: WebSocket, payload: { op: number; d: unknown; s?: number | null; t?: string | null }) => {
    const text = JSON.stringify({ s: null, t: null, ...payload });
    const compressor = compressors.get(ws);
    if (compressor) compressor(text);
    else sendBytes(ws, text);
  };
  const closeBy = (ws: WebSocket, code: number, reason?: string) => {
    closedByServer.add(ws);
    ws.close(code, reason);
  };

  function sendDispatch(session: FakeSession, t: string, d: unknown, replayable = true): number {
    session.seq += 1;
    const entry = { s: session.seq, t, d };
    if (replayable) session.sent.push(entry);
    // Its token is valid from now: the callback within 3 s, edits within 15 minutes (interactionRoutes.ts).
    if (t === 'INTERACTION_CREATE') {
      const i = d as { id: string; token: string; type: number; data?: Record<string, unknown> };
      fake.state.interactions.set(i.token, { id: i.id, issuedAt: now(), type: i.type, focusedType: focusedTypeOf(i.data) });
    }
    if (session.socket) send(session.socket, { op: GatewayOpcodes.Dispatch, ...entry });
    return entry.s;
  }

  function onConnection(ws: WebSocket) {
    events.emit('connection');
    send(ws, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: options.heartbeatIntervalMs ?? 41_250 } });
    ws.on('close', (code) => {
      for (const session of sessions.values()) if (session.socket === ws) detach(session, code, !closedByServer.has(ws), now());
      events.emit('closed', code);
    });
    ws.on('message', (raw) => {
      const payload = JSON.parse(String(raw)) as { op: number; d: Record<string, unknown> | number | null };
      if (payload.op === GatewayOpcodes.Heartbeat) {
        send(ws, { op: GatewayOpcodes.HeartbeatAck, d: null });
        events.emit('heartbeat', payload.d);
      } else if (payload.op === GatewayOpcodes.Identify) identify(ws, payload.d as Record<string, unknown>);
      else if (payload.op === GatewayOpcodes.Resume) resume(ws, payload.d as Record<string, unknown>);
    });
  }

  function identify(ws: WebSocket, d: Record<string, unknown>) {
    const request: GatewayIdentify = {
      token: String(d.token),
      intents: Number(d.intents),
      shard: d.shard as [number, number] | undefined,
      large_threshold: typeof d.large_threshold === 'number' ? d.large_threshold : undefined,
    };
    identifies.push(request);
    events.emit('identify', request);
    if (request.token !== fake.token || tokenRevoked) return closeBy(ws, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
    if ((request.intents & (options.disallowedIntents ?? 0)) !== 0) return closeBy(ws, GatewayCloseCodes.DisallowedIntents, 'Disallowed intent(s).');
    const shard = request.shard ?? [0, 1];
    if (shard[1] < shards) return closeBy(ws, GatewayCloseCodes.ShardingRequired, 'Sharding required.');
    const key = shard[0] % maxConcurrency;
    const last = identifiedAt.get(key);
    if (last !== undefined && now() - last < IDENTIFY_WINDOW_MS) {
      refusedIdentifies.push(request);
      events.emit('invalid-session', null, 'identify over max_concurrency');
      return send(ws, { op: GatewayOpcodes.InvalidSession, d: false });
    }
    identifiedAt.set(key, now());
    const previous = latestOf.get(shard[0]);
    if (previous?.socket && previous.socket !== ws) closeBy(previous.socket, 4000);
    const latest = newSession(shard, ws);
    sessions.set(latest.id, latest);
    latestOf.set(shard[0], latest);
    const bot = fake.state.bot;
    const shardGuilds = [...fake.state.guilds.keys()].filter((id) => Number((BigInt(id) >> 22n) % BigInt(shard[1])) === shard[0]);
    sendDispatch(
      latest,
      'READY',
      {
        v: 10,
        user: { id: bot.id, username: bot.username, discriminator: '0', global_name: null, avatar: null, bot: true },
        guilds: shardGuilds.map((id) => ({ id, unavailable: true })),
        session_id: latest.id,
        resume_gateway_url: address,
        shard: request.shard,
        application: { id: bot.id, flags: 0 },
      },
      false,
    );
    events.emit('ready', latest.id);
    const threshold = request.large_threshold ?? DEFAULT_LARGE_THRESHOLD;
    for (const id of shardGuilds) {
      const payload = guildCreatePayload(fake.state, id);
      const large = payload.member_count > threshold;
      // Without the presences intent Discord sends a large server's members in voice and the bot's own only.
      sendDispatch(latest, 'GUILD_CREATE', large ? { ...payload, large, members: payload.members.filter((m) => m.user.id === bot.id) } : payload);
    }
  }

  function resume(ws: WebSocket, d: Record<string, unknown>) {
    const sessionId = String(d.session_id);
    const seq = typeof d.seq === 'number' ? d.seq : null;
    resumes.push({ sessionId, seq });
    events.emit('resume', { sessionId, seq });
    if (tokenRevoked) return closeBy(ws, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
    const session = sessions.get(sessionId);
    // An unknown, ended or expired session is refused with INVALID_SESSION (not resumable), as Discord does.
    if (!session || String(d.token) !== fake.token || !resumable(session, now(), resumeWindowMs)) {
      events.emit('invalid-session', sessionId, session?.ended ?? 'unknown session');
      return send(ws, { op: GatewayOpcodes.InvalidSession, d: false });
    }
    session.socket = ws;
    session.disconnectedAt = null;
    for (const entry of replayAfter(session, seq)) send(ws, { op: GatewayOpcodes.Dispatch, ...entry });
    sendDispatch(session, 'RESUMED', {}, false);
  }

  const current = () => latestOf.get(0)?.socket ?? null;
  const connectedSockets = () => [...latestOf.values()].filter((session) => session.socket);
  return {
    url: address,
    identifies,
    refusedIdentifies,
    resumes,
    connections,
    events,
    dispatch(t, d, shardId = 0) {
      const latest = latestOf.get(shardId);
      if (!latest) throw new Error(`No gateway session on shard ${shardId}: nothing has identified yet.`);
      if (latest.ended) throw new Error(`No gateway session on shard ${shardId}: the last one ended (${latest.ended}).`);
      return sendDispatch(latest, t, d);
    },
    sessionOf(shardId = 0) {
      const latest = latestOf.get(shardId);
      return latest && { id: latest.id, seq: latest.seq, ended: latest.ended };
    },
    reconnect: () => void (current() && send(current()!, { op: GatewayOpcodes.Reconnect, d: null })),
    closeWith(code, reason) {
      const socket = current();
      if (socket) closeBy(socket, code, reason);
    },
    drop: () => current()?.terminate(),
    revokeToken() {
      tokenRevoked = true;
      for (const session of connectedSockets()) {
        session.ended = 'token revoked';
        closeBy(session.socket!, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
      }
    },
    requireShards(count) {
      shards = count;
      for (const session of connectedSockets().filter((s) => s.shard[1] < count)) {
        session.ended = 'sharding required';
        closeBy(session.socket!, GatewayCloseCodes.ShardingRequired, 'Sharding required.');
      }
    },
    connected: () => current() !== null,
    bytesSent: () => bytesSent,
  };
}
