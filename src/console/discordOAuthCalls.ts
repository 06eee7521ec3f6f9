import { ConsoleRefusal } from './errors.js';

/** The console's Discord application and Discord's addresses. */
export interface DiscordOAuth {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  authorizeUrl: string;
  /** Discord's API root without the version (DISCORD_API_URL). */
  apiUrl: string;
}

export interface DiscordIdentity {
  user: { id: string; username: string; global_name?: string | null };
  guilds: Array<{ id: string; owner?: boolean; permissions?: string }>;
}

const CALL_TIMEOUT_MS = 10_000;

export const signInFailed = (why: string) => new ConsoleRefusal('SIGN_IN_FAILED', `Signing in with Discord failed: ${why}. Try again.`);

const api = (oauth: DiscordOAuth) => `${oauth.apiUrl}/v10`;
const clientAuth = (oauth: DiscordOAuth) => `Basic ${Buffer.from(`${oauth.clientId}:${oauth.clientSecret}`).toString('base64')}`;

async function callDiscord<T>(url: string, init: RequestInit, what: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  } catch {
    throw signInFailed('Discord did not answer');
  }
  // Discord's answer may echo what was sent; only its status reaches the page (and nothing reaches the log).
  if (!res.ok) throw signInFailed(`Discord refused the ${what} (${res.status})`);
  return (await res.json()) as T;
}

/** Exchanges the authorization code (with the PKCE verifier and the client secret); returns the access token. */
export async function exchangeCode(oauth: DiscordOAuth, code: string, codeVerifier: string): Promise<string> {
  const token = await callDiscord<{ access_token: string }>(
    `${api(oauth)}/oauth2/token`,
    {
      method: 'POST',
      headers: { Authorization: clientAuth(oauth), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: oauth.redirectUri, code_verifier: codeVerifier }),
    },
    'code',
  );
  return token.access_token;
}

/** The two reads the access token serves: who signed in, and the servers Discord lists for them. */
export async function readIdentity(oauth: DiscordOAuth, accessToken: string): Promise<DiscordIdentity> {
  const bearer = { headers: { Authorization: `Bearer ${accessToken}` } };
  const user = await callDiscord<DiscordIdentity['user']>(`${api(oauth)}/users/@me`, bearer, 'user lookup');
  const guilds = await callDiscord<DiscordIdentity['guilds']>(`${api(oauth)}/users/@me/guilds`, bearer, 'server list');
  return { user, guilds };
}

/**
 * Revokes the access token once its two reads are done (RFC 7009, client authenticated as at the exchange): it would
 * otherwise stay valid for 7 days with nobody using it. Returns Discord's status, or undefined when it did not answer.
 */
export async function revokeAccessToken(oauth: DiscordOAuth, accessToken: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${api(oauth)}/oauth2/token/revoke`, {
      method: 'POST',
      headers: { Authorization: clientAuth(oauth), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: accessToken, token_type_hint: 'access_token' }),
      redirect: 'manual',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.status;
  } catch {
    return undefined;
  }
}
