import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeDiscord } from './server.js';

export interface FakeOAuthOptions {
  clientId: string;
  clientSecret: string;
}

export interface FakeOAuthRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams | null;
  headers: Record<string, string | string[] | undefined>;
  status: number;
}

export interface FakeOAuth {
  /** Who approves the next authorization (the fake has no login page); undefined: the user denies it. */
  signInAs(userId: string | undefined): void;
  /** Every OAuth2 request answered, in order (authorize, token, users/@me...). */
  requests: FakeOAuthRequest[];
  /** Access tokens revoked through `oauth2/token/revoke`, in order; Discord refuses them from then on (401). */
  revoked: string[];
  /** Scripts the revocation endpoint's answer from now on (e.g. 503); undefined: it works again. */
  failRevocations(status: number | undefined): void;
}

interface Grant {
  userId: string;
  redirectUri: string;
  challenge: string;
}

const PATHS = ['/oauth2/authorize', '/api/v10/oauth2/token', '/api/v10/oauth2/token/revoke', '/api/v10/users/@me', '/api/v10/users/@me/guilds'];
const ADMINISTRATOR = 1n << 3n;

/**
 * Discord's OAuth2 authorization-code flow with PKCE on the fake's port: the authorize page (approving at once as
 * the chosen user), the token endpoint (client secret, redirect URI and S256 verifier checked, codes single-use),
 * the revocation endpoint (RFC 7009, client secret checked), `users/@me` and `users/@me/guilds` (owner and
 * permissions computed from the fake's guilds, as Discord does; a revoked token gets 401).
 */
export function attachFakeOAuth(fake: FakeDiscord, options: FakeOAuthOptions): FakeOAuth {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, string>();
  const requests: FakeOAuthRequest[] = [];
  const revoked: string[] = [];
  let approver: string | undefined;
  let revocationFailure: number | undefined;

  const state = fake.state;
  const permissionsIn = (guildId: string, userId: string): bigint => {
    const guild = state.guilds.get(guildId)!;
    const held = new Set([guildId, ...(guild.members.get(userId)?.roles ?? [])]);
    const all = [...guild.roles.values()].filter((r) => held.has(r.id)).reduce((p, r) => p | BigInt(r.permissions), 0n);
    return guild.ownerId === userId ? all | ADMINISTRATOR : all;
  };

  function authorize(q: URLSearchParams): { status: number; headers?: Record<string, string>; body?: unknown } {
    const redirect = q.get('redirect_uri');
    if (q.get('client_id') !== options.clientId || !redirect) return { status: 400, body: { error: 'invalid_client' } };
    const back = new URL(redirect);
    back.searchParams.set('state', q.get('state') ?? '');
    const scopes = (q.get('scope') ?? '').split(' ');
    const valid = q.get('response_type') === 'code' && scopes.includes('identify') && scopes.includes('guilds') && q.get('code_challenge_method') === 'S256';
    if (!valid || !q.get('code_challenge')) back.searchParams.set('error', 'invalid_request');
    else if (!approver) back.searchParams.set('error', 'access_denied');
    else {
      const code = randomBytes(12).toString('hex');
      grants.set(code, { userId: approver, redirectUri: redirect, challenge: q.get('code_challenge')! });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { Location: back.toString() } };
  }

  function clientAuthenticated(form: URLSearchParams, headers: FakeOAuthRequest['headers']): boolean {
    const basic = /^Basic (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [form.get('client_id'), form.get('client_secret')];
    return id === options.clientId && secret === options.clientSecret;
  }

  function token(form: URLSearchParams, headers: FakeOAuthRequest['headers']) {
    if (!clientAuthenticated(form, headers)) return { status: 401, body: { error: 'invalid_client' } };
    const grant = grants.get(form.get('code') ?? '');
    grants.delete(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (form.get('grant_type') !== 'authorization_code' || !grant || grant.redirectUri !== form.get('redirect_uri') || grant.challenge !== challenge) {
      return { status: 400, body: { error: 'invalid_grant' } };
    }
    const access = randomBytes(16).toString('hex');
    tokens.set(access, grant.userId);
    return { status: 200, body: { access_token: access, token_type: 'Bearer', expires_in: 604800, refresh_token: randomBytes(16).toString('hex'), scope: 'identify guilds' } };
  }

  // RFC 7009: an unknown or already revoked token is still a 200; only the client's authentication is refused.
  function revoke(form: URLSearchParams, headers: FakeOAuthRequest['headers']) {
    if (revocationFailure) return { status: revocationFailure, body: { message: 'scripted failure', code: 0 } };
    if (!clientAuthenticated(form, headers)) return { status: 401, body: { error: 'invalid_client' } };
    const hint = form.get('token_type_hint');
    if (!form.get('token') || (hint && hint !== 'access_token' && hint !== 'refresh_token')) return { status: 400, body: { error: 'invalid_request' } };
    const access = form.get('token')!;
    if (tokens.delete(access)) revoked.push(access);
    return { status: 200, body: {} };
  }

  function me(path: string, headers: FakeOAuthRequest['headers']) {
    const userId = tokens.get(/^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1] ?? '');
    if (!userId) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    const user = state.users.get(userId);
    if (path.endsWith('/@me')) return { status: 200, body: { id: userId, username: user?.username ?? `user${userId.slice(-4)}`, global_name: user?.global_name ?? null } };
    const guilds = [...state.guilds.values()].filter((g) => g.ownerId === userId || g.members.has(userId));
    return {
      status: 200,
      body: guilds.map((g) => ({ id: g.id, name: g.name, icon: g.icon, owner: g.ownerId === userId, permissions: String(permissionsIn(g.id, userId)) })),
    };
  }

  const [original] = fake.httpServer.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  fake.httpServer.removeAllListeners('request');
  fake.httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (!PATHS.includes(url.pathname)) return original!(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const form = req.method === 'POST' ? new URLSearchParams(raw) : null;
      const result =
        url.pathname === '/oauth2/authorize'
          ? authorize(url.searchParams)
          : url.pathname.startsWith('/api/v10/oauth2/token')
            ? req.method !== 'POST'
              ? { status: 405, body: {} }
              : url.pathname.endsWith('/revoke')
                ? revoke(form!, req.headers)
                : token(form!, req.headers)
            : me(url.pathname, req.headers);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, form, headers: req.headers, status: result.status });
      const headers: Record<string, string> = { ...('headers' in result ? result.headers : {}) };
      if (result.body !== undefined) headers['Content-Type'] = 'application/json';
      res.writeHead(result.status, headers).end(result.body === undefined ? undefined : JSON.stringify(result.body));
    });
  });

  return {
    signInAs: (userId) => void (approver = userId),
    requests,
    revoked,
    failRevocations: (status) => void (revocationFailure = status),
  };
}
