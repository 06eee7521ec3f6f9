import { keepFlash, takeFlashValue, type FlashValue } from '../../src/console/flash.js';
import { submitFormOnce } from '../../src/console/formTokens.js';
import type { AppDeps } from '../context.js';
import { formOf } from './consoleDeps.js';
import { signedIn, type ConsoleContext, type ConsoleRouter } from './consoleState.js';
import { seeOther } from './render.js';
import { FORM_TOKEN_FIELD, type FieldError, type FormProblem } from './views/formParts.js';

/** Thrown by a form's change when the form has to come back to the user, its input kept and the fields named. */
export class FormRejection extends Error implements FormProblem {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly errors: FieldError[],
  ) {
    super(errors.map((e) => e.message).join(' '));
  }
}

/**
 * A state-changing form's POST: runs `change` once per one-time form token and answers 303 to the page it returns
 * (post/redirect/get); the same form sent again is sent to the first POST's page and changes nothing. A
 * FormRejection gives the token back and goes to `rejected`, which renders the form again with its problem.
 */
export async function submitOnce(ctx: ConsoleContext, deps: AppDeps, change: () => Promise<string>, rejected?: (problem: FormProblem) => Promise<void>): Promise<void> {
  const { session } = signedIn(ctx);
  const form = { sessionToken: session.token, action: ctx.path, token: formOf(ctx).get(FORM_TOKEN_FIELD) ?? '' };
  try {
    seeOther(ctx, await submitFormOnce(deps, form, change));
  } catch (err) {
    if (!(err instanceof FormRejection) || !rejected) throw err;
    await rejected(err);
  }
}

/** The steps of a form's POST route (formPost): whose server, the change, and the form again on a rejection. */
export interface FormPostSteps<S> {
  /** The server the form acts on, checked as its area checks a write (the manager rule, fresh; the feature gate). */
  server: (ctx: ConsoleContext) => Promise<S>;
  /** The change with the form's fields; the path of the page to see next. */
  change: (server: S, form: URLSearchParams, ctx: ConsoleContext) => Promise<string>;
  /** Renders the form again with its input and problem; without it a rejection is the error page. */
  rejected?: (server: S, form: URLSearchParams, problem: FormProblem, ctx: ConsoleContext) => Promise<void>;
}

/** A form's POST route at `path`: the server, then its change once per form token (submitOnce). */
export function formPost<S>(router: ConsoleRouter, deps: AppDeps, path: string, steps: FormPostSteps<S>): void {
  router.post(path, async (ctx) => {
    const server = await steps.server(ctx);
    const form = formOf(ctx);
    const { rejected } = steps;
    await submitOnce(ctx, deps, () => steps.change(server, form, ctx), rejected && ((problem) => rejected(server, form, problem, ctx)));
  });
}

/**
 * For a change whose result shows a secret once: keeps `value` for the result page at `path` (sealed, for this
 * session, read once) and returns `path`, the change's answer. The page reads it with takeShownOnce.
 */
export async function showOnceAt(ctx: ConsoleContext, deps: AppDeps, path: string, value: FlashValue): Promise<string> {
  await keepFlash(deps, signedIn(ctx).session.token, path, value);
  return path;
}

/** What the change kept for this page, the first time it is opened; undefined on a reload (already shown). */
export function takeShownOnce(ctx: ConsoleContext, deps: AppDeps): Promise<FlashValue | undefined> {
  return takeFlashValue(deps, signedIn(ctx).session.token, ctx.path);
}
