import type { TemporalGateway } from '../core/temporal/gateway.js';
import { operationAttributes } from '../core/temporal/searchAttributes.js';
import { startOnce } from '../core/temporal/startOnce.js';

export const appealDecisionWorkflowId = (guildId: string, number: number) => `appeal-decision/${guildId}/${number}`;

/** Starts the effects of a decided appeal; a repeated start (relay, retry) finds the existing run. */
export function startAppealDecisionWorkflow(
  temporal: TemporalGateway,
  d: { guildId: string; number: number; decision: 'approved' | 'rejected'; keyName?: string },
): Promise<void> {
  const by = d.keyName ? ` by key "${d.keyName}"` : '';
  return startOnce(temporal, 'appealDecision', {
    workflowId: appealDecisionWorkflowId(d.guildId, d.number),
    args: [{ guildId: d.guildId, number: d.number, decision: d.decision }],
    typedSearchAttributes: operationAttributes(d.guildId, `appeals.${d.decision === 'approved' ? 'approve' : 'reject'}`),
    staticSummary: `Appeal #${d.number} ${d.decision}${by}`,
  });
}
