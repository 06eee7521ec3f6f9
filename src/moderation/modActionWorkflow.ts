import { WorkflowNotFoundError } from '@temporalio/client';
import type { ModActionRecord } from '../../db/moderation/actions.js';
import type { ModerationActionOutcome } from '../../workflows/moderationAction.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { operationAttributes } from '../core/temporal/searchAttributes.js';
import { startOnce } from '../core/temporal/startOnce.js';

export const modActionWorkflowId = (guildId: string, actionId: string) => `mod-action/${guildId}/${actionId}`;

type StartableAction = Pick<ModActionRecord, 'actionId' | 'guildId' | 'userId' | 'action'> & { keyName?: string };

/** Starts the action's workflow; a repeated start (relay, retry) finds the existing run. */
export function startModActionWorkflow(temporal: TemporalGateway, a: StartableAction): Promise<void> {
  const by = a.keyName ? ` by key "${a.keyName}"` : '';
  return startOnce(temporal, 'moderationAction', {
    workflowId: modActionWorkflowId(a.guildId, a.actionId),
    args: [{ actionId: a.actionId, guildId: a.guildId }],
    typedSearchAttributes: operationAttributes(a.guildId, `moderation.${a.action}`),
    memo: { status: 'pending' },
    staticSummary: `${a.action} user ${a.userId}${by}`,
  });
}

export type LiveModActionStatus = { status: 'pending' | 'running' } | ModerationActionOutcome;

/**
 * The action's status as its workflow sees it, from the memo (describe() needs no worker): a run stays
 * open after `done` while it waits for a timeout or tempban to end, so the memo, not the close, says done.
 */
export async function readModActionStatus({ client }: TemporalGateway, guildId: string, actionId: string): Promise<LiveModActionStatus> {
  const handle = client.workflow.getHandle(modActionWorkflowId(guildId, actionId));
  try {
    const { status, memo } = await handle.describe();
    if (status.name === 'COMPLETED') return (await handle.result()) as ModerationActionOutcome;
    if (memo?.status === 'done' && typeof memo.caseNumber === 'number') return { status: 'done', caseNumber: memo.caseNumber };
    if (memo?.status === 'failed' && typeof memo.error === 'string') return { status: 'failed', error: memo.error };
    return { status: memo?.status === 'running' ? 'running' : 'pending' };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { status: 'pending' };
    throw err;
  }
}
