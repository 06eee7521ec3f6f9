import type { SignalDefinition } from '@temporalio/common';
import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids and types only.

export interface PurchaseWorkflowInput {
  guildId: string;
  purchaseId: number;
}

export interface PurchaseEffectsResult {
  /** `granted`: the role was given; `expired`: a timed role ran out and was taken back; `refunded`: the refund ended the wait; `none`: nothing to give. */
  outcome: 'granted' | 'expired' | 'refunded' | 'none';
}

export interface PurchaseRefundResult {
  roleRemoved: boolean;
}

export const purchaseEffectsWorkflow: WorkflowRef<(input: PurchaseWorkflowInput) => Promise<PurchaseEffectsResult>> = { name: 'purchaseEffects' };
export const purchaseRefundWorkflow: WorkflowRef<(input: PurchaseWorkflowInput) => Promise<PurchaseRefundResult>> = { name: 'purchaseRefund' };

export const purchaseEffectsWorkflowId = (guildId: string, purchaseId: number) => `shop-purchase/${guildId}/${purchaseId}`;
export const purchaseRefundWorkflowId = (guildId: string, purchaseId: number) => `shop-refund/${guildId}/${purchaseId}`;

/**
 * Sent by the refund workflow to the purchase's effects workflow: a timed role's expiry is cancelled. Declared once
 * for both workflows, as the object defineSignal returns (see src/giveaways/ids.ts).
 */
export const purchaseRefundedSignal = { type: 'signal', name: 'purchaseRefunded' } as SignalDefinition<[], 'purchaseRefunded'>;
