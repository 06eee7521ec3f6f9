import type { Kysely } from 'kysely';
import type { VNode } from 'preact';
import type { Database } from '../../../db/schema.js';
import type { AuditActor } from '../../../db/shared/audit.js';
import type { Operation } from '../../../src/core/temporal/operation.js';
import type { Workflow } from '../../../src/core/temporal/workflowRef.js';
import type { AppDeps } from '../../context.js';
import { formOf, type managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { seeOther, sendPage } from '../render.js';
import type { FormState } from '../views/formParts.js';
import { queryValues } from './memberPick.js';

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

/** A record to decide (a submission, an appeal) as its area loads it for the decision's pages. */
export interface DecisionRecord {
  server: Awaited<ReturnType<typeof managedServer>>;
  number: number;
  /** The record's page, where the decision form is and where the decision comes back to. */
  path: string;
  /** The refusal the area's use case gives a record that can no longer be decided (409), null while it can be. */
  closed: Error | null;
  /** The record's page with the decision form showing `form`. */
  page: (form?: FormState) => VNode;
}

/** One area's decision: its record, its form read into a verdict, its use case and workflow, its confirmation. */
export interface DecisionArea<D extends DecisionRecord, V extends object, R, W extends Workflow> {
  /** The record's route path, e.g. `/servers/:guildId/appeals/:number`. */
  route: string;
  /** The record and what its confirmation page needs besides. */
  load: (ctx: ConsoleContext) => Promise<D>;
  /** The form's input checked by the API's schema, or a FormRejection naming the fields. */
  verdictOf: (form: URLSearchParams) => V;
  /** A checked verdict as the form's values: what the confirmation carries and Cancel gives back. */
  valuesOf: (verdict: V) => URLSearchParams;
  decide: (trx: Kysely<Database>, verdict: V & ConsoleDecider) => Promise<R>;
  operation: Operation<R, W, Kysely<Database>>;
  /** The confirmation page: what the verdict will do, its form (to `action`) carrying `values`. */
  confirmPage: (record: D, verdict: V, c: { action: string; values: URLSearchParams; cancel: string }) => Promise<VNode>;
}

/** The decision form's values a confirmation's Cancel carries back in the record page's query (none: a fresh form). */
export function keptDecision(ctx: ConsoleContext, choiceField: string): FormState | undefined {
  const values = queryValues(ctx);
  return values.has(choiceField) ? { values } : undefined;
}

/**
 * A final decision from a record's page, asked first: the form's POST checks the input (a problem stays on the record's
 * page with its status; a record already decided gets the use case's refusal) and sends the checked values to the
 * confirmation page (GET, nothing changed), whose form (CSRF, one-time token) decides through postDecision.
 */
export function decisionRoutes<D extends DecisionRecord, V extends object, R, W extends Workflow>(router: ConsoleRouter, deps: AppDeps, area: DecisionArea<D, V, R, W>): void {
  /** The verdict of `values` for an open record, or the record's page again with the problem (undefined). */
  function checked(ctx: ConsoleContext, record: DecisionRecord, values: URLSearchParams): V | undefined {
    if (record.closed) throw record.closed;
    try {
      return area.verdictOf(values);
    } catch (err) {
      if (!(err instanceof FormRejection)) throw err;
      sendPage(ctx, record.page({ values, problem: err }), err.status);
      return undefined;
    }
  }

  router.post(`${area.route}/decision`, async (ctx) => {
    const record = await area.load(ctx);
    const verdict = checked(ctx, record, formOf(ctx));
    if (verdict) seeOther(ctx, `${record.path}/decision/confirm?${area.valuesOf(verdict).toString()}`);
  });

  router.get(`${area.route}/decision/confirm`, async (ctx) => {
    const record = await area.load(ctx);
    const verdict = checked(ctx, record, queryValues(ctx));
    if (!verdict) return;
    const values = area.valuesOf(verdict);
    const c = { action: `${record.path}/decision/confirm`, values, cancel: `${record.path}?${values.toString()}` };
    sendPage(ctx, await area.confirmPage(record, verdict, c));
  });

  router.post(`${area.route}/decision/confirm`, async (ctx) => {
    const record = await area.load(ctx);
    await postDecision(ctx, deps, { ...area, ...record, then: record.path });
  });
}

/**
 * A confirmed final decision, as the API decides it: the form read into a verdict, the area's use case in one
 * transaction, its workflow started after commit, then back to the record (post/redirect/get). Once per form token:
 * the confirmation sent again goes to the record and decides nothing more. Input the verdict or the use case refuses
 * stays on the record's page with its status.
 */
async function postDecision<V extends object, R, W extends Workflow>(
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
