import type Koa from 'koa';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ConsoleRefusal } from '../../src/console/errors.js';
import { resumeSession, type SessionPolicy } from '../../src/console/sessions.js';
import { issueFormToken } from '../../src/console/formTokens.js';
import { csrfTokenOf, tokensEqual } from '../../src/console/tokens.js';
import type { Clock } from '../../src/core/clock.js';
import type { ConsoleState } from './consoleState.js';
import { readForm } from './formBody.js';
import { readSessionCookie, writeSessionCookie } from './sessionCookie.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Resumes the session of the cookie, if it is still live; a dead one's cookie is cleared. */
export function loadSession(deps: { db: Kysely<Database>; clock: Clock; policy: SessionPolicy }): Koa.Middleware<ConsoleState> {
  return async (ctx, next) => {
    const token = readSessionCookie(ctx);
    const session = token ? await resumeSession(deps, token) : undefined;
    if (session) {
      ctx.state.session = session;
      ctx.state.viewer = {
        userName: session.userName,
        csrf: csrfTokenOf(session.token),
        formToken: (action) => issueFormToken(session.token, action, deps.clock.now()),
      };
    } else if (token) {
      writeSessionCookie(ctx, null);
    }
    await next();
  };
}

/**
 * Every state-changing request: refused when a browser says it comes from another origin, its form read once, and,
 * when a session is signed in, refused unless it carries the session's CSRF token (form field `_csrf` or the
 * X-CSRF-Token header htmx sends), compared in constant time.
 */
export function guardWrites(): Koa.Middleware<ConsoleState> {
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) return next();
    const origin = ctx.get('Origin');
    if ((origin && origin !== `${ctx.protocol}://${ctx.host}`) || ctx.get('Sec-Fetch-Site') === 'cross-site') {
      throw new ConsoleRefusal('CROSS_ORIGIN_REQUEST', 'The console accepts forms from its own pages only.');
    }
    // Only a form can carry `_csrf`; any other body leaves the header as the one place for the token.
    ctx.state.form = ctx.is('application/x-www-form-urlencoded') ? await readForm(ctx) : new URLSearchParams();
    const session = ctx.state.session;
    if (session) {
      const sent = ctx.get('X-CSRF-Token') || ctx.state.form.get('_csrf') || '';
      if (!tokensEqual(sent, csrfTokenOf(session.token))) {
        throw new ConsoleRefusal('CSRF_TOKEN_INVALID', 'The form is missing its security token or it is out of date; reload the page and try again.');
      }
    }
    return next();
  };
}

/** Pages and actions of a signed-in manager: a page sends the visitor to sign in, an action is refused 401. */
export const requireSession: Koa.Middleware<ConsoleState> = async (ctx, next) => {
  if (ctx.state.session) return next();
  if (SAFE_METHODS.has(ctx.method)) {
    ctx.redirect('/console/sign-in');
    return;
  }
  throw new ConsoleRefusal('SIGN_IN_REQUIRED', 'Sign in first.');
};
