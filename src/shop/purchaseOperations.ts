import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  listUnstartedEffects,
  listUnstartedRefunds,
  markEffectsStarted,
  markRefundStarted,
  type PurchaseRecord,
  type PurchaseRef,
} from '../../db/shop/purchases.js';
import type { Operation } from '../core/temporal/operation.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import { purchaseEffectsWorkflow, purchaseEffectsWorkflowId, purchaseRefundWorkflow, purchaseRefundWorkflowId } from './ids.js';

/** The role of a purchase given (colour roles exclusive) and, for a timed role, taken back when it runs out. */
export const purchaseEffectsOperation: Operation<PurchaseRef, WorkflowOf<typeof purchaseEffectsWorkflow>, Kysely<Database>> = {
  workflow: purchaseEffectsWorkflow,
  workflowId: (r) => purchaseEffectsWorkflowId(r.guildId, r.purchaseId),
  args: (r) => [{ guildId: r.guildId, purchaseId: r.purchaseId }],
  operation: () => 'shop.purchase',
  guildId: (r) => r.guildId,
  summary: (r, by) => `Shop purchase #${r.purchaseId}${by}`,
  listUnstarted: listUnstartedEffects,
  markStarted: markEffectsStarted,
};

/** A refunded purchase's role taken back (unless another purchase gives it) and its expiry cancelled. */
export const purchaseRefundOperation: Operation<PurchaseRef, WorkflowOf<typeof purchaseRefundWorkflow>, Kysely<Database>> = {
  workflow: purchaseRefundWorkflow,
  workflowId: (r) => purchaseRefundWorkflowId(r.guildId, r.purchaseId),
  args: (r) => [{ guildId: r.guildId, purchaseId: r.purchaseId }],
  operation: () => 'shop.refund',
  guildId: (r) => r.guildId,
  summary: (r, by) => `Shop refund of purchase #${r.purchaseId}${by}`,
  listUnstarted: listUnstartedRefunds,
  markStarted: markRefundStarted,
};

/** What the bot has to give or take back after a purchase changed: nothing for an item without a role. */
export const roleEffectsOf = (p: PurchaseRecord): PurchaseRef | undefined => (p.roleId === null ? undefined : { guildId: p.guildId, purchaseId: p.id });
