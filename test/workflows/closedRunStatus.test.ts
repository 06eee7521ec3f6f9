import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import type { XpChangeRecord } from '../../db/levels/xpChanges.js';
import type { ModActionRecord } from '../../db/moderation/actions.js';
import { readPolledStatus } from '../../src/core/temporal/polledStatus.js';
import { XP_CHANGE_STATUS_MEMO } from '../../src/levels/ids.js';
import { xpChangeStatus } from '../../src/levels/xpChangeOperation.js';
import { MOD_ACTION_STATUS_MEMO } from '../../src/moderation/ids.js';
import { modActionStatus } from '../../src/moderation/modActionOperation.js';
import { testGateway } from '../harness/temporal.js';

// Runs on a task queue no worker polls: each keeps the memo it started with, and is then terminated, as an
// operator would end a stuck run (a failed run reads the same way: closed without a result). Their records still
// say the operation is under way, so the status comes from the run.
const gateway = testGateway();
afterAll(() => gateway.client.connection.close());
const GUILD = '1100000000000000099';

async function closedRun(workflowType: string, workflowId: string, memo: Record<string, unknown>): Promise<void> {
  const handle = await gateway.client.workflow.start(workflowType, { workflowId, taskQueue: gateway.taskQueue, args: [{}], memo });
  await handle.terminate('ended by the test');
}

const processingChange = () => ({ guildId: GUILD, changeId: randomUUID(), status: 'processing' }) as XpChangeRecord;
const runningAction = () => ({ guildId: GUILD, actionId: `mda_${randomUUID()}`, status: 'running' }) as ModActionRecord;

it('an XP change whose run closed without a result reads failed with INTERNAL_ERROR, not processing', async () => {
  const change = processingChange();
  await closedRun('xpChange', xpChangeStatus.workflowId(change), { [XP_CHANGE_STATUS_MEMO]: 'processing' });
  expect(await readPolledStatus(gateway, xpChangeStatus, change)).toEqual({ status: 'failed', result: null, error: 'INTERNAL_ERROR' });
});

it('a moderation action whose run closed while running reads failed with INTERNAL_ERROR', async () => {
  const action = runningAction();
  await closedRun('moderationAction', modActionStatus.workflowId(action), { [MOD_ACTION_STATUS_MEMO]: 'running' });
  expect(await readPolledStatus(gateway, modActionStatus, action)).toEqual({ status: 'failed', caseNumber: null, error: 'INTERNAL_ERROR' });
});

it('a moderation action already done (its run waiting out a timeout) still reads done when the run is ended', async () => {
  const action = runningAction();
  await closedRun('moderationAction', modActionStatus.workflowId(action), { [MOD_ACTION_STATUS_MEMO]: 'done', caseNumber: 7 });
  expect(await readPolledStatus(gateway, modActionStatus, action)).toEqual({ status: 'done', caseNumber: 7, error: null });
});
