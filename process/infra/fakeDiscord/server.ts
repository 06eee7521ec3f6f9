import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { CHANNEL_ROUTES } from './channelRoutes.js';
import { COMMAND_ROUTES } from './commandRoutes.js';
import type { FakeHandler, FakeRoute } from './fakeRoute.js';
import { matches, type FakeAnswer, type Fault } from './faults.js';
import { GUILD_ROUTES } from './guildRoutes.js';
import { MEMBER_LIST_ROUTES } from './memberList.js';
import { MEMBER_ROUTES } from './memberRoutes.js';
import { MESSAGE_ROUTES } from './messageRoutes.js';
import { ROUTE_PERMISSIONS } from './permissions.js';
import { DISCORD_RATE_LIMITS, createRateLimiter, type FakeRateLimits } from './rateLimits.js';
import { INTERACTION_ROUTES, TOKENLESS_PATHS } from './interactionRoutes.js';
import { createFakeState, type FakeDiscordState, type FakeGuildSeed } from './state.js';

export interface RecordedRequest {
  method: string;
  /** The path after `/api/v10`, without the query. */
  path: string;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
  status: number;
}

export interface FakeDiscordOptions {
  guilds?: FakeGuildSeed[];
  bot?: { id: string; username: string };
  /** The token the fake accepts (`Authorization: Bot <token>`); anything else answers 401. */
  token?: string;
  /** Discord's route buckets and global limit (DISCORD_RATE_LIMITS) unless given; `{}` turns them off. */
  rateLimits?: FakeRateLimits;
  /** The fake's clock (default Date.now): interaction tokens expire by it, and the gateway's windows default to it. */
  now?: () => number;
  /** 0 (the default) picks a free loopback port. */
  port?: number;
  host?: string;
}

export interface FakeDiscord {
  /** The API root to configure (DISCORD_API_URL), without the version. */
  apiUrl: string;
  token: string;
  state: FakeDiscordState;
  /** Every request answered, in order, with its headers. */
  requests: RecordedRequest[];
  /**
   * Answers so far that Discord counts toward its invalid-request ban (10,000 per 10 minutes per address): 401, 403,
   * and 429 other than the `shared` scope.
   */
  invalidRequests(): number;
  /** Scripts an answer (or a delay) for the next matching requests. */
  fail(fault: Fault): void;
  /** Adds an endpoint (the OAuth2 and gateway fakes build on this one). */
  route(method: string, pattern: string, handler: FakeHandler): void;
  /** The listening server, for fakes served on the same port (the gateway's WebSocket upgrades). */
  httpServer: Server;
  close(): Promise<void>;
}

export const FAKE_DISCORD_TOKEN = 'ZmFrZS1ib3Q.ZmFrZQ.ZmFrZS1kaXNjb3JkLXRva2VuLWZvci10ZXN0cw';
const DEFAULT_BOT = { id: '1000000000000000001', username: 'Community Bot' };

/** A real HTTP server that answers like Discord's REST API v10, on a loopback port. */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const token = options.token ?? FAKE_DISCORD_TOKEN;
  const state = createFakeState(options.bot ?? DEFAULT_BOT, options.guilds ?? [], options.now);
  const routes: Array<FakeRoute & { regex: RegExp; names: string[] }> = [];
  const faults: Array<Fault & { left: number }> = [];
  const requests: RecordedRequest[] = [];
  const limiter = createRateLimiter(options.rateLimits ?? DISCORD_RATE_LIMITS);
  let invalid = 0;

  function route(method: string, pattern: string, handler: FakeHandler) {
    const names: string[] = [];
    const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, name: string) => (names.push(name), '([^/]+)'));
    routes.push({ method, pattern, handler, regex: new RegExp(`^${source}$`), names });
  }
  for (const r of [...GUILD_ROUTES, ...MEMBER_LIST_ROUTES, ...MEMBER_ROUTES, ...MESSAGE_ROUTES, ...CHANNEL_ROUTES, ...INTERACTION_ROUTES, ...COMMAND_ROUTES]) route(r.method, r.pattern, r.handler);

  async function answer(req: IncomingMessage, body: Record<string, unknown> | null, path: string, query: URLSearchParams): Promise<FakeAnswer & { drop?: boolean; hold?: boolean }> {
    const method = req.method ?? 'GET';
    const fault = faults.find((f) => f.left > 0 && matches(f, method, path));
    if (fault) {
      fault.left -= 1;
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault.answer) return fault.answer;
    }
    return { ...(await normalAnswer(req, body, path, query)), drop: fault?.dropAnswer, hold: fault?.holdAnswer };
  }

  function normalAnswer(req: IncomingMessage, body: Record<string, unknown> | null, path: string, query: URLSearchParams): FakeAnswer {
    const method = req.method ?? 'GET';
    if (!TOKENLESS_PATHS.test(path) && req.headers.authorization !== `Bot ${token}`) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    const found = routes.filter((r) => r.method === method).map((r) => ({ r, m: r.regex.exec(path) })).find((x) => x.m);
    if (!found) return { status: 404, body: { message: '404: Not Found', code: 0 } };
    const params = Object.fromEntries(found.r.names.map((n, i) => [n, found.m![i + 1]!]));
    const limit = limiter.check(`${method} ${found.r.pattern}`, params.guild ?? params.channel ?? params.token ?? '');
    if (limit.refusal) return limit.refusal;
    const denied = ROUTE_PERMISSIONS[`${method} ${found.r.pattern}`]?.(state, params);
    if (denied) return { ...denied, headers: { ...limit.headers, ...denied.headers } };
    const result = found.r.handler(state, { params, query, body, headers: lowerHeaders(req) });
    return { ...result, headers: { ...limit.headers, ...result.headers } };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const path = decodeURIComponent(url.pathname.replace(/^\/api\/v10/, ''));
        const raw = Buffer.concat(chunks).toString('utf8');
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
        const result = url.pathname.startsWith('/api/v10/')
          ? await answer(req, body, path, url.searchParams)
          : { status: 404, body: { message: '404: Not Found', code: 0 } };
        requests.push({ method: req.method ?? 'GET', path, query: url.searchParams, headers: lowerHeaders(req), body, status: result.status });
        if (isInvalid(result)) invalid += 1;
        if ('drop' in result && result.drop) return void res.destroy();
        if ('hold' in result && result.hold) return;
        const headers: Record<string, string> = { ...result.headers };
        // A text body is an HTML page (Cloudflare's ban answers with one), anything else Discord's JSON.
        if (result.body !== undefined) headers['Content-Type'] = typeof result.body === 'string' ? 'text/html' : 'application/json';
        res.writeHead(result.status, headers);
        res.end(result.body === undefined ? undefined : typeof result.body === 'string' ? result.body : JSON.stringify(result.body));
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  // Upgraded connections (the gateway's WebSockets) leave the server's bookkeeping: close() must end them itself.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://${options.host ?? '127.0.0.1'}:${port}/api`,
    token,
    state,
    requests,
    invalidRequests: () => invalid,
    fail: (fault) => faults.push({ ...fault, left: fault.times ?? 1 }),
    route,
    httpServer: server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
      }),
  };
}

function isInvalid(answer: FakeAnswer): boolean {
  if (answer.status === 401 || answer.status === 403) return true;
  const scope = Object.entries(answer.headers ?? {}).find(([k]) => k.toLowerCase() === 'x-ratelimit-scope')?.[1];
  return answer.status === 429 && scope !== 'shared';
}

function lowerHeaders(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}
