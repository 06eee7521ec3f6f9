import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { constants as zlibConstants, createDeflate } from 'node:zlib';
import { GatewayCloseCodes, GatewayOpcodes } from 'discord-api-types/v10';
import { WebSocketServer, type WebSocket } from 'ws';
import type { FakeDiscord } from './server.js';

// A fake of Discord's gateway v10 on the HTTP fake's port: @discordjs/ws takes the gateway's address from
// `GET /gateway/bot` only (TOOLCHAIN.md pitfall 13), so the HTTP fake answers it with this server's ws:// URL
// and READY's resume_gateway_url points back here too.

export interface FakeGatewayOptions {
  heartbeatIntervalMs?: number;
  /** Intents the application may not use (privileged ones not enabled): an IDENTIFY asking for one is closed with 4014. */
  disallowedIntents?: number;
  shards?: number;
  /** What `GET /gateway/bot` says of the sessions left (default: 1000 of 1000). */
  sessionStartLimit?: { total: number; remaining: number };
}

export interface GatewayIdentify {
  token: string;
  intents: number;
  shard?: [number, number];
}

interface Session {
  id: string;
  seq: number;
  /** Every dispatch sent in this session, for RESUME's replay. */
  sent: Array<{ s: number; t: string; d: unknown }>;
  socket: WebSocket | null;
}

export interface FakeGateway {
  /** `ws://host:port`, what `GET /gateway/bot` answers. */
  url: string;
  identifies: GatewayIdentify[];
  resumes: Array<{ sessionId: string; seq: number | null }>;
  /** Every connection in order, and whether it asked for zlib-stream transport compression. */
  connections: Array<{ compressed: boolean }>;
  /** 'identify', 'ready', 'resume', 'heartbeat', 'connection' and 'closed' (by the client), as they happen. */
  events: EventEmitter;
  /** Sends a dispatch on a shard's latest session (kept for replay while it is disconnected); returns its sequence number. */
  dispatch(t: string, d: unknown, shardId?: number): number;
  /** Asks the client to reconnect and resume (opcode 7). */
  reconnect(): void;
  /** Closes the current connection with a close code (4000 resumable, 4014 disallowed intents, ...). */
  closeWith(code: number, reason?: string): void;
  /** Drops the current connection without a close frame (a network cut). */
  drop(): void;
  connected(): boolean;
}

/** Serves the gateway on the fake's HTTP server and answers `GET /gateway/bot` with its address. */
export function attachFakeGateway(fake: FakeDiscord, options: FakeGatewayOptions = {}): FakeGateway {
  const address = fake.apiUrl.replace(/^http/, 'ws').replace(/\/api$/, '');
  const wss = new WebSocketServer({ noServer: true });
  const events = new EventEmitter();
  const identifies: GatewayIdentify[] = [];
  const resumes: FakeGateway['resumes'] = [];
  // The latest session of each shard (an IDENTIFY without a shard is shard 0).
  const latestOf = new Map<number, Session>();
  let sessions = 0;

  fake.route('GET', '/gateway/bot', () => ({
    status: 200,
    body: { url: address, shards: options.shards ?? 1, session_start_limit: { total: 1000, remaining: 1000, ...options.sessionStartLimit, reset_after: 86_400_000, max_concurrency: 1 } },
  }));
  // A connection asking for `compress=zlib-stream` gets every payload through one deflate context of its own, each
  // payload ended by a sync flush, as Discord sends them.
  const connections: Array<{ compressed: boolean }> = [];
  const compressors = new WeakMap<WebSocket, (text: string) => void>();
  fake.httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const compress = new URL(req.url ?? '/', 'http://fake').searchParams.get('compress') === 'zlib-stream';
    wss.handleUpgrade(req, socket, head, (ws) => {
      connections.push({ compressed: compress });
      if (compress) compressors.set(ws, zlibStreamOf(ws));
      onConnection(ws);
    });
  });
  fake.httpServer.on('close', () => wss.close());

  const send = (ws: WebSocket, payload: { op: number; d: unknown; s?: number | null; t?: string | null }) => {
    const text = JSON.stringify({ s: null, t: null, ...payload });
    const compressor = compressors.get(ws);
    if (compressor) compressor(text);
    else ws.send(text);
  };

  function sendDispatch(session: Session, t: string, d: unknown): number {
    session.seq += 1;
    const entry = { s: session.seq, t, d };
    session.sent.push(entry);
    if (session.socket) send(session.socket, { op: GatewayOpcodes.Dispatch, ...entry });
    return entry.s;
  }

  function onConnection(ws: WebSocket) {
    events.emit('connection');
    send(ws, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: options.heartbeatIntervalMs ?? 41_250 } });
    ws.on('close', (code) => {
      for (const session of latestOf.values()) if (session.socket === ws) session.socket = null;
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
    const request: GatewayIdentify = { token: String(d.token), intents: Number(d.intents), shard: d.shard as [number, number] | undefined };
    identifies.push(request);
    events.emit('identify', request);
    if (request.token !== fake.token) return ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
    if ((request.intents & (options.disallowedIntents ?? 0)) !== 0) return ws.close(GatewayCloseCodes.DisallowedIntents, 'Disallowed intent(s).');
    sessions += 1;
    const shardId = request.shard?.[0] ?? 0;
    const previous = latestOf.get(shardId);
    if (previous?.socket && previous.socket !== ws) previous.socket.close(4000);
    const latest: Session = { id: `fake-session-${sessions}`, seq: 0, sent: [], socket: ws };
    latestOf.set(shardId, latest);
    const bot = fake.state.bot;
    sendDispatch(latest, 'READY', {
      v: 10,
      user: { id: bot.id, username: bot.username, discriminator: '0', global_name: null, avatar: null, bot: true },
      guilds: [...fake.state.guilds.keys()].map((id) => ({ id, unavailable: true })),
      session_id: latest.id,
      resume_gateway_url: address,
      shard: request.shard,
      application: { id: bot.id, flags: 0 },
    });
    events.emit('ready', latest.id);
  }

  function resume(ws: WebSocket, d: Record<string, unknown>) {
    const sessionId = String(d.session_id);
    const seq = typeof d.seq === 'number' ? d.seq : null;
    resumes.push({ sessionId, seq });
    events.emit('resume', { sessionId, seq });
    const latest = [...latestOf.values()].find((session) => session.id === sessionId);
    // An unknown session is refused with INVALID_SESSION (not resumable), as Discord does.
    if (!latest || latest.id !== sessionId || String(d.token) !== fake.token) return send(ws, { op: GatewayOpcodes.InvalidSession, d: false });
    latest.socket = ws;
    for (const entry of latest.sent.filter((e) => e.s > (seq ?? 0))) send(ws, { op: GatewayOpcodes.Dispatch, ...entry });
    sendDispatch(latest, 'RESUMED', {});
  }

  const current = () => latestOf.get(0)?.socket ?? null;
  return {
    url: address,
    identifies,
    resumes,
    connections,
    events,
    dispatch(t, d, shardId = 0) {
      const latest = latestOf.get(shardId);
      if (!latest) throw new Error(`No gateway session on shard ${shardId}: nothing has identified yet.`);
      return sendDispatch(latest, t, d);
    },
    reconnect: () => void (current() && send(current()!, { op: GatewayOpcodes.Reconnect, d: null })),
    closeWith: (code, reason) => current()?.close(code, reason),
    drop: () => current()?.terminate(),
    connected: () => current() !== null,
  };
}

/**
 * The deflate context of one compressed connection: what each sync flush produces is sent as one binary message.
 * One payload at a time: with several writes in flight, a flush's callback can run before its output's 'data' event
 * (the output is buffered while the stream processes synchronously), and a message would carry part of the next
 * payload, which the bot cannot parse. ws's permessage-deflate serialises its compressions for the same reason.
 */
function zlibStreamOf(ws: WebSocket): (text: string) => void {
  const deflate = createDeflate();
  let pending: Buffer[] = [];
  let previous = Promise.resolve();
  deflate.on('data', (chunk: Buffer) => pending.push(chunk));
  ws.on('close', () => deflate.destroy());
  const compressAndSend = (text: string) =>
    new Promise<void>((resolve) => {
      deflate.write(text);
      deflate.flush(zlibConstants.Z_SYNC_FLUSH, () => {
        const message = Buffer.concat(pending);
        pending = [];
        if (ws.readyState === ws.OPEN) ws.send(message);
        resolve();
      });
    });
  return (text) => {
    previous = previous.then(() => compressAndSend(text));
  };
}
