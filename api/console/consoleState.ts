import type { Router, RouterContext } from '@koa/router';
import type { ConsoleSession } from '../../src/console/sessions.js';
import type { RequestState } from '../context.js';
import type { Viewer } from './views/layout.js';

/** What the console's middleware learns about a request. */
export interface ConsoleState extends RequestState {
  session?: ConsoleSession;
  /** Set with the session: its name and CSRF token, as every page needs them. */
  viewer?: Viewer;
  /** The parsed form of a POST (its CSRF field already checked). */
  form?: URLSearchParams;
}

export type ConsoleContext = RouterContext<ConsoleState>;
export type ConsoleRouter = Router<ConsoleState>;

/** The signed-in session of a page or action that needs one (the session middleware already refused others). */
export function signedIn(ctx: ConsoleContext): { session: ConsoleSession; viewer: Viewer } {
  if (!ctx.state.session || !ctx.state.viewer) throw new Error('signedIn() on a route without a session');
  return { session: ctx.state.session, viewer: ctx.state.viewer };
}
