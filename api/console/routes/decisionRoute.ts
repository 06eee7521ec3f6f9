import type { Kysely } from 'kysely';
import type { VNode } from 'preact';
import type { Database } from '../../../db/schema.js';
import type { AuditActor } from '../../../db/shared/audit.js';
import type { Operation } from '../../../src/core/temporal/operation.js';
import type { Workflow } from '../../../src/core/temporal/workflowRef.js';
import type { AppDeps } from '../../context.js';
import { formOf, type managedServer } from '../consoleDeps.js';
import type { ConsoleContext } from '../consoleState.js';
import { submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { sendPage } from '../render.js';
import type { FormState } from '../views/formParts.js';

/** Who decides from the dashboard, in the shape every decision use case takes: the console user, no API key. */
export interface ConsoleDecider {
  guildId: string;
  number: number;
  apiKeyId: null;
  decidedBy: string;
  actor: AuditActor;
  requestId: string;
  at: Date;
}

/**
 * A final decision posted from a record's page (a submission, an appeal), as the API decides it: the form read into a
 * verdict, the area's use case in one transaction, its workflow started after commit, then back to the record
 * (post/redirect/get). Input the verdict or the use case refuses stays on the record's page with its status.
 */
export async function postDecision<V extends object, R, W extends Workflow>(
  ctx: ConsoleContext,
  deps: AppDeps,
  d: {
    server: Awaited<ReturnType<typeof managedServer>>;
    number: number;
    verdictOf: (form: URLSearchParams) => V;
    decide: (trx: Kysely<Database>, verdict: V & ConsoleDecider) => Promise<R>;
    operation: Operation<R, W, Kysely<Database>>;
    then: string;
    page: (form: FormState) => VNode;
  },
): Promise<void> {
  const form = formOf(ctx);
  const { guild, session, actor } = d.server;
  await submitOnce(
    ctx,
    deps,
    async () => {
      const verdict = d.verdictOf(form);
      const by: ConsoleDecider = { guildId: guild.id, number: d.number, apiKeyId: null, decidedBy: session.userId, actor, requestId: ctx.state.requestId, at: deps.clock.now() };
      const decided = await deps.db.transaction().execute((trx) => d.decide(trx, { ...verdict, ...by }));
      await launchAfterCommit(deps, d.operation, decided);
      return d.then;
    },
    async (problem) => sendPage(ctx, d.page({ values: form, problem }), problem.status),
  );
}
