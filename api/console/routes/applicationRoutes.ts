import { applicationDecisionOperation } from '../../../src/applications/applicationDecisionOperation.js';
import { DecisionRequest } from '../../../src/applications/contract.js';
import { decideSubmission } from '../../../src/applications/decideSubmission.js';
import { isDecidable } from '../../../src/applications/decisionRules.js';
import { readSubmissionDetail, readSubmissionPage } from '../../../src/applications/readApplications.js';
import { readForm } from '../../../src/applications/readFormSettings.js';
import { readServerDirectory } from '../../../src/console/serverDirectory.js';
import { applicationNotOpen } from '../../../src/core/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection } from '../formFlow.js';
import { sendPage } from '../render.js';
import { nameOf } from '../views/ticketPages.js';
import { DECISION_FIELDS, SUBMISSION_FILTERS, SubmissionPage, submissionPath, SubmissionsPage } from '../views/applicationPages.js';
import { FeatureOffPage } from '../views/featureOff.js';
import { ConfirmSubmissionDecisionPage } from '../views/submissionDecisionConfirm.js';
import type { FieldError, FormState } from '../views/formParts.js';
import { decisionRoutes, keptDecision } from './decisionRoute.js';
import { listQueryOf } from './listQuery.js';

const PAGE_SIZE = 25;

/** The decision form's input, checked by the API's own schema, or a 400 naming each field to fix. */
function decisionOf(form: URLSearchParams) {
  const errors: FieldError[] = [];
  const decision = form.get(DECISION_FIELDS.decision);
  if (decision !== 'accepted' && decision !== 'denied') errors.push({ field: DECISION_FIELDS.decision, message: 'Choose to accept or deny.' });
  const reason = (form.get(DECISION_FIELDS.reason) ?? '').trim();
  const parsed = DecisionRequest.safeParse({ decision: 'accepted', reason: reason === '' ? null : reason });
  if (!parsed.success) errors.push({ field: DECISION_FIELDS.reason, message: 'Give a reason of at most 1,000 characters, without control characters.' });
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { decision: decision as 'accepted' | 'denied', reason: parsed.data!.reason ?? null };
}

const decisionValues = (v: ReturnType<typeof decisionOf>) => new URLSearchParams({ [DECISION_FIELDS.decision]: v.decision, [DECISION_FIELDS.reason]: v.reason ?? '' });

/** Applications: submissions by status, a submission with its answers, and the decision (the API's decision use case). */
export function applicationRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/applications';

  async function submissionOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'applications');
    const submission = await readSubmissionDetail(deps.db, server.guild.id, idParam(ctx, 'number'));
    const names = await memberNames(deps.memberCache, server.guild.id, [submission.userId, submission.decidedBy].filter((id) => id !== null));
    return { ...server, submission, names };
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('applications')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'applications', active: 'applications', title: 'Applications', then: 'applications' }));
    const query = listQueryOf(ctx, SUBMISSION_FILTERS, 'a submission number');
    const page = await readSubmissionPage(deps.db, guild.id, { ...query, limit: PAGE_SIZE });
    const names = await memberNames(deps.memberCache, guild.id, page.items.map((s) => s.userId));
    const olderHref = page.nextCursor && `/console/servers/${guild.id}/applications?${new URLSearchParams({ ...(query.status && { status: query.status }), before: page.nextCursor })}`;
    sendPage(ctx, SubmissionsPage({ viewer, guild, status: query.status, submissions: page.items, names, olderHref }));
  });

  router.get(`${base}/:number`, async (ctx) => {
    const { guild, viewer, submission, names } = await submissionOf(ctx);
    sendPage(ctx, SubmissionPage({ viewer, guild, submission, names, form: keptDecision(ctx, DECISION_FIELDS.decision) }));
  });

  // Accept or deny, asked first: the confirmation names the form's roles and channels the decision uses.
  decisionRoutes(router, deps, {
    route: `${base}/:number`,
    load: async (ctx) => {
      const { submission, names, ...server } = await submissionOf(ctx);
      const { guild, viewer } = server;
      return {
        server,
        number: submission.number,
        path: submissionPath(guild.id, submission.number),
        closed: isDecidable(submission.status) ? null : applicationNotOpen(submission.status),
        page: (form?: FormState) => SubmissionPage({ viewer, guild, submission, names, form }),
        applicant: nameOf(names, submission.userId)!,
        formId: submission.formId,
      };
    },
    verdictOf: decisionOf,
    valuesOf: decisionValues,
    decide: decideSubmission,
    operation: applicationDecisionOperation,
    confirmPage: async (record, verdict, confirm) => {
      const { guild, viewer } = record.server;
      const [form, directory] = await Promise.all([record.formId === null ? null : readForm(deps.db, guild.id, record.formId), readServerDirectory(deps.platform, guild.id)]);
      return ConfirmSubmissionDecisionPage({ viewer, guild, number: record.number, applicant: record.applicant, verdict, form, directory, confirm });
    },
  });
}
