import type * as Workflows from '../workflows/index.js';
import { appealDecisionWorkflow } from '../src/appeals/ids.js';
import { applicationDecisionWorkflow } from '../src/applications/ids.js';
import type { Workflow, WorkflowOf, WorkflowRef } from '../src/core/temporal/workflowRef.js';
import { eventFanoutWorkflow, webhookBatchWorkflow } from '../src/events/ids.js';
import { flowRunWorkflow } from '../src/flows/ids.js';
import { giveawayEndDispatcherWorkflow, giveawayEndsWorkflow, giveawayWorkflow } from '../src/giveaways/ids.js';
import { inviteMilestonesWorkflow, refreshInviteRanksWorkflow } from '../src/invites/ids.js';
import { purgeExpiredRecordsWorkflow, retentionPurgeDispatcherWorkflow } from '../src/keys/ids.js';
import { levelUpEffectsWorkflow, refreshLevelRanksWorkflow, xpChangeWorkflow } from '../src/levels/ids.js';
import { moderationActionWorkflow } from '../src/moderation/ids.js';
import { rankRecountDispatcherWorkflow } from '../src/ranks/ids.js';
import { purchaseEffectsWorkflow, purchaseRefundWorkflow } from '../src/shop/ids.js';
import { ticketCloseWorkflow } from '../src/tickets/ids.js';
import { webhookDeliveryWorkflow } from '../src/webhooks/ids.js';

type Exported = typeof Workflows;

/**
 * Every workflow ref (what the api, the start relay and the schedules start, typed without importing workflow code)
 * under the name of the workflow function it stands for: one per function the bundle exports, and no other.
 */
export const WORKFLOW_REFS = {
  eventFanout: eventFanoutWorkflow,
  webhookBatch: webhookBatchWorkflow,
  webhookDelivery: webhookDeliveryWorkflow,
  purgeExpiredRecords: purgeExpiredRecordsWorkflow,
  xpChange: xpChangeWorkflow,
  levelUpEffects: levelUpEffectsWorkflow,
  refreshLevelRanks: refreshLevelRanksWorkflow,
  moderationAction: moderationActionWorkflow,
  appealDecision: appealDecisionWorkflow,
  inviteMilestones: inviteMilestonesWorkflow,
  refreshInviteRanks: refreshInviteRanksWorkflow,
  applicationDecision: applicationDecisionWorkflow,
  ticketClose: ticketCloseWorkflow,
  purchaseEffects: purchaseEffectsWorkflow,
  purchaseRefund: purchaseRefundWorkflow,
  flowRun: flowRunWorkflow,
  giveaway: giveawayWorkflow,
  giveawayEnds: giveawayEndsWorkflow,
  giveawayEndDispatcher: giveawayEndDispatcherWorkflow,
  rankRecountDispatcher: rankRecountDispatcherWorkflow,
  retentionPurgeDispatcher: retentionPurgeDispatcherWorkflow,
} satisfies { [N in keyof Exported]: WorkflowRef<Workflow> };

/** True when A and B are the same type (not merely assignable: a function with fewer parameters is assignable). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The workflows whose ref's signature differs from the function's, parameters or result. */
type DriftedRefs = {
  [N in keyof Exported]: Same<WorkflowOf<(typeof WORKFLOW_REFS)[N]>, Exported[N]> extends true ? never : N;
}[keyof Exported];

/**
 * Binds each ref to its workflow's type: a workflow whose parameters or result change while its ref stays fails `tsc`
 * here, naming the workflow ("Type '"xpChange"' does not satisfy the constraint 'never'"). The registry test checks
 * each ref's name against its key.
 */
export type RefsMatchTheirWorkflows = NoDrift<DriftedRefs>;
type NoDrift<T extends never> = T;
