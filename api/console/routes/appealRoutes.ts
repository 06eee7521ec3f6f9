import { appealDecisionOperation } from '../../../src/appeals/appealDecisionOperation.js';
import { AppealDecisionRequest } from '../../../src/appeals/contract.js';
import { decideAppeal, isAppealDecidable } from '../../../src/appeals/decideAppeal.js';
import { readAppealSettings } from '../../../src/appeals/readAppealSettings.js';
import { readAppealConversationPage, readAppealPage } from '../../../src/appeals/readAppeals.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { AppError, appealNotOpen } from '../../../src/core/errors.js';
import { readCase } from '../../../src/moderation/readModeration.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection } from '../formFlow.js';
import { sendPage } from '../render.js';
import { ConfirmAppealDecisionPage } from '../views/appealDecisionConfirm.js';
import { APPEAL_DECISION_FIELDS, APPEAL_FILTERS, AppealPage, appealPath, AppealsPage, appellant } from '../views/appealPages.js';
import { FeatureOffPage } from '../views/featureOff.js';
import type { FieldError, FormState } from '../views/formParts.js';
import { decisionRoutes, keptDecision } from './decisionRoute.js';
import { cursorOf, listQueryOf } from './listQuery.js';

const PAGE_SIZE = 25;
const CONVERSATION_PAGE = 50;

/** The decision form's input, checked by the API's own schema, or a 400 naming each field to fix. */
function decisionOf(form: URLSearchParams) {
  const errors: FieldError[] = [];
  const verb = form.get(APPEAL_DECISION_FIELDS.verb);
  if (verb !== 'approve' && verb !== 'reject') errors.push({ field: APPEAL_DECISION_FIELDS.verb, message: 'Choose to approve or reject.' });
  const reason = (form.get(APPEAL_DECISION_FIELDS.reason) ?? '').trim();
  const parsed = AppealDecisionRequest.safeParse({ reason });
  if (!parsed.success) errors.push({ field: APPEAL_DECISION_FIELDS.reason, message: 'Give a reason of 1 to 1,000 characters, without control characters.' });
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { verb: verb as 'approve' | 'reject', reason };
}

const decisionValues = (v: ReturnType<typeof decisionOf>) => new URLSearchParams({ [APPEAL_DECISION_FIELDS.verb]: v.verb, [APPEAL_DECISION_FIELDS.reason]: v.reason });

/** The appeal's ban case, or null when it has none or the case was deleted since. */
async function banCaseOf(deps: AppDeps, guildId: string, caseNumber: number | null) {
  if (caseNumber === null) return null;
  return readCase(deps.db, guildId, caseNumber).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'CASE_NOT_FOUND') return null;
    throw err;
  });
}

/** Ban appeals: the queue by status, an appeal with its ban case, and the decision (the API's decision use case). */
export function appealRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/appeals';

  async function appealOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'appeals');
    const number = idParam(ctx, 'number');
    const before = cursorOf(ctx, 'a message number', 'before', 15);
    const { appeal, messages, earlierCursor } = await readAppealConversationPage(deps.db, server.guild.id, number, { before, limit: CONVERSATION_PAGE });
    const banCase = await banCaseOf(deps, server.guild.id, appeal.banCaseNumber);
    // Names for the people on this page only: the decider, the ban's moderator, the authors of the messages shown.
    const names = await memberNames(deps.memberCache, server.guild.id, [appeal.decidedBy, banCase?.moderatorId ?? null, ...messages.map((m) => m.authorId)].filter((id) => id !== null));
    const earlierHref = earlierCursor && `${appealPath(server.guild.id, number)}?before=${earlierCursor}`;
    return { ...server, appeal, conversation: { messages, earlierHref }, banCase, names };
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('appeals')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'appeals', active: 'appeals', title: 'Appeals', then: 'appeals' }));
    const query = listQueryOf(ctx, APPEAL_FILTERS, 'an appeal number', 'open');
    const page = await readAppealPage(deps.db, guild.id, { ...query, limit: PAGE_SIZE });
    const olderHref = page.nextCursor && `/console/servers/${guild.id}/appeals?${new URLSearchParams({ status: query.status, before: page.nextCursor })}`;
    sendPage(ctx, AppealsPage({ viewer, guild, status: query.status, appeals: page.items, olderHref }));
  });

  router.get(`${base}/:number`, async (ctx) => {
    const { guild, viewer, appeal, conversation, banCase, names } = await appealOf(ctx);
    sendPage(ctx, AppealPage({ viewer, guild, appeal, conversation, banCase, names, form: keptDecision(ctx, APPEAL_DECISION_FIELDS.verb) }));
  });

  // Approve or reject, asked first: the confirmation says what each does with this server's settings.
  decisionRoutes(router, deps, {
    route: `${base}/:number`,
    load: async (ctx) => {
      const { appeal, conversation, banCase, names, ...server } = await appealOf(ctx);
      const { guild, viewer } = server;
      return {
        server,
        number: appeal.number,
        path: appealPath(guild.id, appeal.number),
        closed: isAppealDecidable(appeal.status) ? null : appealNotOpen(appeal.status),
        page: (form?: FormState) => AppealPage({ viewer, guild, appeal, conversation, banCase, names, form }),
        appellant: appellant(appeal),
      };
    },
    verdictOf: decisionOf,
    valuesOf: decisionValues,
    decide: decideAppeal,
    operation: appealDecisionOperation,
    confirmPage: async (record, verdict, confirm) => {
      const { guild, viewer } = record.server;
      const settings = await readAppealSettings(deps.db, guild.id);
      return ConfirmAppealDecisionPage({ viewer, guild, number: record.number, appellant: record.appellant, verdict, settings, confirm });
    },
  });
}
