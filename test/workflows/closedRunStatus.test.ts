import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { readOperationStatus } from '../../src/core/temporal/operation.js';
import { XP_CHANGE_STATUS_MEMO } from '../../src/levels/ids.js';
import { xpChangeStatus } from '../../src/levels/xpChangeOperation.js';
import { MOD_ACTION_STATUS_MEMO } from '../../src/moderation/ids.js';
import { modActionStatus } from '../../src/moderation/modActionOperation.js';
import { testGateway } from '../harness/temporal.js';

// Runs on a task queue no worker polls: each keeps the memo it started with, and is then terminated, as an
// operator would end a stuck run (a failed run reads the same way: closed without a result).
const gateway = testGateway();
afterAll(() => gateway.client.connection.close());

async function closedRun(workflowType: string, memo: Record<string, unknown>): Promise<string> {
  const workflowId = `closed-run-test/${randomUUID()}`;
  const handle = await gateway.client.workflow.start(workflowType, { workflowId, taskQueue: gateway.taskQueue, args: [{}], memo });
  await handle.terminate('ended by the test');
  return workflowId;
}

it('an XP change whose run closed without a result reads failed with INTERNAL_ERROR, not processing', async () => {
  const id = await closedRun('xpChange', { [XP_CHANGE_STATUS_MEMO]: 'processing' });
  expect(await readOperationStatus(gateway, id, xpChangeStatus)).toEqual({ status: 'failed', error: 'INTERNAL_ERROR' });
});

it('a moderation action whose run closed while running reads failed with INTERNAL_ERROR', async () => {
  const id = await closedRun('moderationAction', { [MOD_ACTION_STATUS_MEMO]: 'running' });
  expect(await readOperationStatus(gateway, id, modActionStatus)).toEqual({ status: 'failed', error: 'INTERNAL_ERROR' });
});

it('a moderation action already done (its run waiting out a timeout) still reads done when the run is ended', async () => {
  const id = await closedRun('moderationAction', { [MOD_ACTION_STATUS_MEMO]: 'done', caseNumber: 7 });
  expect(await readOperationStatus(gateway, id, modActionStatus)).toEqual({ status: 'done', caseNumber: 7 });
});
