import { findPendingSignIn, insertPendingSignIn, takePendingSignIn, type PendingSignIn } from '../../db/console/sessions.js';
import { exchangeCode, readIdentity, revokeAccessToken, signInFailed, type DiscordOAuth } from './discordOAuthCalls.js';
import { managesListedGuild } from './managerRule.js';
import { admitSignInAttempt } from './signInLimit.js';
import { hashToken, matchesHash, newToken, pkceChallenge } from './tokens.js';
import { signInUser, type SignInDeps } from './userSessions.js';

interface Deps extends SignInDeps {
  signInPerMinute: number;
  oauth: DiscordOAuth;
}

/** A sign-in left at Discord's page longer than this must start again (the sign-in cookie lives as long). */
export const PENDING_SIGN_IN_SECONDS = 600;

/** Where the browser goes next, and the nonce its sign-in cookie must carry back to the callback. */
export interface DiscordSignInStart {
  authorizeUrl: string;
  browserNonce: string;
}

/**
 * Starts Discord's authorization-code flow with PKCE (S256) and `state`, all random and kept server-side (the state
 * as its hash), so the callback proves it answers a sign-in this service began; the browser's nonce (kept as its
 * hash) proves the callback reached the browser that began it.
 */
export async function beginDiscordSignIn(deps: Deps, clientAddress: string): Promise<DiscordSignInStart> {
  await admitSignInAttempt({ ...deps, perMinute: deps.signInPerMinute }, clientAddress);
  const state = newToken();
  const verifier = newToken();
  const browserNonce = newToken();
  await insertPendingSignIn(deps.db, hashToken(state), { codeVerifier: verifier, browserHash: hashToken(browserNonce), createdAt: deps.clock.now() });
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
  return { authorizeUrl: url.toString(), browserNonce };
}

/**
 * The pending sign-in of `state`, taken once, if it is live and `browserNonce` is the one of the browser that began
 * it. Another browser presenting the callback (a link made with someone else's Discord account: login CSRF; or a
 * callback URL that leaked) is refused and leaves the sign-in to its own browser.
 */
async function claimPendingSignIn(deps: Deps, state: string | undefined, browserNonce: string | undefined): Promise<PendingSignIn> {
  const stateHash = state ? hashToken(state) : undefined;
  const pending = stateHash && (await findPendingSignIn(deps.db, stateHash));
  if (!pending || deps.clock.now().getTime() - pending.createdAt.getTime() > PENDING_SIGN_IN_SECONDS * 1000) {
    throw signInFailed('the sign-in expired or was not started here');
  }
  if (!pending.browserHash || !browserNonce || !matchesHash(browserNonce, pending.browserHash)) throw signInFailed('the sign-in was not started in this browser');
  if (!(await takePendingSignIn(deps.db, stateHash))) throw signInFailed('the sign-in expired or was not started here');
  return pending;
}

/** A token Discord did not revoke expires by itself in 7 days: worth a warning, not a failed sign-in. */
async function revoke(deps: Deps, accessToken: string): Promise<void> {
  const status = await revokeAccessToken(deps.oauth, accessToken);
  if (status !== 200) deps.logger.warn({ status: status ?? 'no answer' }, 'console sign-in: Discord did not revoke the access token');
}

/**
 * The callback: claims the pending sign-in, exchanges the code, reads the user and the servers they own or manage,
 * and starts a session. The access token serves these two reads only, is revoked after them (a failed revocation
 * does not fail the sign-in) and is never stored. Returns the session token.
 */
export async function completeDiscordSignIn(
  deps: Deps,
  input: { code?: string; state?: string; error?: string; browserNonce?: string; previousToken?: string; clientAddress: string },
): Promise<string> {
  const pending = await claimPendingSignIn(deps, input.state, input.browserNonce);
  if (input.error || !input.code) throw signInFailed(input.error === 'access_denied' ? 'you did not authorize the console' : 'Discord sent no code');
  const accessToken = await exchangeCode(deps.oauth, input.code, pending.codeVerifier);
  const { user, guilds } = await readIdentity(deps.oauth, accessToken).finally(() => revoke(deps, accessToken));
  const guildIds = guilds.filter(managesListedGuild).map((g) => g.id);
  const signedIn = { userId: user.id, userName: user.global_name || user.username, guildIds };
  return signInUser(deps, signedIn, { method: 'discord', clientAddress: input.clientAddress, previousToken: input.previousToken });
}
