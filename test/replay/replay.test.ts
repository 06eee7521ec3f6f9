import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, Worker, type ReplayResult } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow/lib/errors.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as workflows from '../../workflows/index.js';
import { readRecordedHistories, type RecordedHistory } from '../../src/core/temporal/histories.js';
import { sharedBundle } from '../harness/temporal.js';

const HISTORIES = fileURLToPath(new URL('../histories', import.meta.url));

async function replay(bundle: Awaited<ReturnType<typeof sharedBundle>>, histories: RecordedHistory[]): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle: bundle }, histories)) results.push(result);
  return results;
}

describe('recorded workflow histories', () => {
  let histories: RecordedHistory[];
  beforeAll(async () => {
    histories = await readRecordedHistories(HISTORIES);
  });

  it('include at least one history of every workflow type the worker runs', () => {
    const recorded = new Set(histories.map((h) => h.workflowType));
    expect(Object.keys(workflows).filter((type) => !recorded.has(type))).toEqual([]);
  });

  it('replay on the current workflow code without a determinism error', async () => {
    const results = await replay(await sharedBundle(), histories);
    expect(results).toHaveLength(histories.length);
    expect(results.filter((r) => r.error).map((r) => `${r.workflowId}: ${r.error}`)).toEqual([]);
  });

  it('fail when a workflow changes its commands without patched()', async () => {
    const changed = await bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('./fixtures/eventFanoutChanged.ts', import.meta.url)),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
    });
    const results = await replay(changed, histories.filter((h) => h.workflowType === 'eventFanout'));
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect(result.error).toBeInstanceOf(DeterminismViolationError);
  });
});
