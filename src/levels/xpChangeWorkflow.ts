import { WorkflowNotFoundError } from '@temporalio/client';
import type { XpChangeRecord } from '../../db/levels/xpChanges.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { operationAttributes } from '../core/temporal/searchAttributes.js';
import { startOnce } from '../core/temporal/startOnce.js';
import type { XpChangeOutcome } from '../../workflows/xpChange.js';

export const xpChangeWorkflowId = (guildId: string, changeId: string) => `xp-change/${guildId}/${changeId}`;

type StartableChange = Pick<XpChangeRecord, 'changeId' | 'guildId' | 'userId' | 'type' | 'unit' | 'amount'> & { keyName?: string };

/** Starts the change's workflow; a repeated start (relay, retry) finds the existing run. */
export function startXpChangeWorkflow(temporal: TemporalGateway, change: StartableChange): Promise<void> {
  const by = change.keyName ? ` by key "${change.keyName}"` : '';
  return startOnce(temporal, 'xpChange', {
    workflowId: xpChangeWorkflowId(change.guildId, change.changeId),
    args: [{ changeId: change.changeId, guildId: change.guildId, userId: change.userId }],
    typedSearchAttributes: operationAttributes(change.guildId, 'levels.xpChange'),
    memo: { status: 'pending' },
    staticSummary: `XP ${change.type} ${change.amount} ${change.unit} for user ${change.userId}${by}`,
  });
}

export type LiveXpStatus = { status: 'pending' | 'processing' } | XpChangeOutcome;

/**
 * The change's status as its workflow sees it: the memo while it runs (describe() is answered by the
 * server alone, no worker needed), the result once it closed; `pending` before it started.
 */
export async function readXpChangeStatus({ client }: TemporalGateway, guildId: string, changeId: string): Promise<LiveXpStatus> {
  const handle = client.workflow.getHandle(xpChangeWorkflowId(guildId, changeId));
  try {
    const description = await handle.describe();
    if (description.status.name === 'RUNNING') {
      return { status: description.memo?.status === 'processing' ? 'processing' : 'pending' };
    }
    if (description.status.name === 'COMPLETED') return (await handle.result()) as XpChangeOutcome;
    return { status: 'processing' };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { status: 'pending' };
    throw err;
  }
}
