import type { Kysely } from 'kysely';
import { insertPendingSignIn, takePendingSignIn } from '../../db/console/sessions.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { ConsoleRefusal } from './errors.js';
import { managesListedGuild } from './managerRule.js';
import { startSession, type SessionPolicy } from './sessions.js';
import { admitSignInAttempt } from './signInLimit.js';
import { hashToken, newToken, pkceChallenge } from './tokens.js';

export interface DiscordOAuth {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  authorizeUrl: string;
  /** Discord's API root without the version (DISCORD_API_URL). */
  apiUrl: string;
}

interface Deps {
  db: Kysely<Database>;
  clock: Clock;
  policy: SessionPolicy;
  signInPerMinute: number;
  oauth: DiscordOAuth;
}

/** A sign-in left at Discord's page longer than this must start again. */
const PENDING_MS = 10 * 60_000;
const CALL_TIMEOUT_MS = 10_000;

/**
 * Starts Discord's authorization-code flow with PKCE (S256) and `state`: both random, kept server-side (the state
 * as its hash), so the callback proves it answers a sign-in this service began. Returns Discord's authorize URL.
 */
export async function beginDiscordSignIn(deps: Deps, clientAddress: string): Promise<string> {
  await admitSignInAttempt({ ...deps, perMinute: deps.signInPerMinute }, clientAddress);
  const state = newToken();
  const verifier = newToken();
  await insertPendingSignIn(deps.db, hashToken(state), verifier, deps.clock.now());
  const url = new URL(deps.oauth.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: deps.oauth.clientId,
    scope: 'identify guilds',
    state,
    redirect_uri: deps.oauth.redirectUri,
    code_challenge: pkceChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

const failed = (why: string) => new ConsoleRefusal('SIGN_IN_FAILED', `Signing in with Discord failed: ${why}. Try again.`);

async function callDiscord<T>(url: string, init: RequestInit, what: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  } catch {
    throw failed('Discord did not answer');
  }
  // Discord's answer may echo what was sent; only its status reaches the page (and nothing reaches the log).
  if (!res.ok) throw failed(`Discord refused the ${what} (${res.status})`);
  return (await res.json()) as T;
}

/**
 * The callback: takes the pending sign-in of `state` once, exchanges the code (with the PKCE verifier and the client
 * secret), reads the user and the servers they own or manage, and starts a session. The access token is used for
 * these two reads only and never stored. Returns the session token.
 */
export async function completeDiscordSignIn(deps: Deps, input: { code?: string; state?: string; error?: string; previousToken?: string }): Promise<string> {
  const pending = input.state ? await takePendingSignIn(deps.db, hashToken(input.state)) : undefined;
  if (!pending || deps.clock.now().getTime() - pending.createdAt.getTime() > PENDING_MS) throw failed('the sign-in expired or was not started here');
  if (input.error || !input.code) throw failed(input.error === 'access_denied' ? 'you did not authorize the console' : 'Discord sent no code');
  const api = `${deps.oauth.apiUrl}/v10`;
  const basic = Buffer.from(`${deps.oauth.clientId}:${deps.oauth.clientSecret}`).toString('base64');
  const token = await callDiscord<{ access_token: string }>(
    `${api}/oauth2/token`,
    {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: deps.oauth.redirectUri, code_verifier: pending.codeVerifier }),
    },
    'code',
  );
  const bearer = { headers: { Authorization: `Bearer ${token.access_token}` } };
  const user = await callDiscord<{ id: string; username: string; global_name?: string | null }>(`${api}/users/@me`, bearer, 'user lookup');
  const guilds = await callDiscord<Array<{ id: string; owner?: boolean; permissions?: string }>>(`${api}/users/@me/guilds`, bearer, 'server list');
  const guildIds = guilds.filter(managesListedGuild).map((g) => g.id);
  return startSession(deps, { userId: user.id, userName: user.global_name || user.username, guildIds }, input.previousToken);
}
