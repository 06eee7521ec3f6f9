import { AsyncResource } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { launchOperation } from '../src/core/temporal/operation.js';
import type { OutboxEvent } from '../src/events/eventTypes.js';
import { startFanouts } from '../src/events/outbox.js';
import type { AppContext, AppDeps, Caller } from './context.js';
import type { RouteInput } from './route.js';

/** Parsed params, query and body, as the route's schemas output them. */
export interface ValidInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** Work a handler asked for after its commit (starts and fan-outs that the relay would otherwise make later). */
export type AfterCommitHooks = Array<() => Promise<void>>;

/**
 * What a handler is handed. The write helpers are getters on the prototype, made when a handler asks for them:
 * a read, most requests, makes none of their closures.
 */
export class HandlerInput {
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;

  constructor(
    input: ValidInput,
    readonly caller: Caller,
    readonly db: Kysely<Database>,
    private readonly deps: AppDeps,
    private readonly hooks: AfterCommitHooks,
    readonly checked: unknown,
  ) {
    ({ params: this.params, query: this.query, body: this.body } = input);
  }

  get afterCommit(): RouteInput<never, never, never>['afterCommit'] {
    const { hooks } = this;
    return (hook) => void hooks.push(hook);
  }

  get launch(): RouteInput<never, never, never>['launch'] {
    const { hooks, deps, caller } = this;
    return (operation, record) => void hooks.push(() => launchOperation(deps, operation, record, caller.apiKey.name));
  }

  get publish(): RouteInput<never, never, never>['publish'] {
    const { hooks, deps } = this;
    return (events: OutboxEvent[]) => void hooks.push(() => startFanouts(deps, events));
  }
}

/**
 * Runs the after-commit hooks once the response is sent, so the caller does not wait for them; a failure is logged
 * (the start relay retries the work). Bound to the request's async context: a listener on the response otherwise
 * runs in the one the tracing bound the response to, which lacks what the request added (its request id, carried
 * to the workflow).
 */
export function runAfterResponse(ctx: AppContext, hooks: AfterCommitHooks, deps: AppDeps, requestId: string | undefined): void {
  if (hooks.length === 0) return;
  ctx.res.once(
    'finish',
    AsyncResource.bind(() => {
      for (const hook of hooks) {
        hook().catch((err: unknown) => deps.logger.warn({ err, requestId }, 'after-commit work failed; the relay retries it'));
      }
    }),
  );
}
