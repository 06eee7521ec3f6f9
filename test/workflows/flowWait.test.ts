import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findFlowRun } from '../../db/flows/runs.js';
import type { FlowNodeValue } from '../../src/flows/ids.js';
import { createTestGuild } from '../harness/fixtures.js';
import { recordFlowRun, startFlowRun } from '../harness/flowRuns.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

const bed = useTimeSkippingTestBed({ taskQueue: `flow-wait-${randomUUID()}` });

/** A run recorded as the API records one, then run on the time-skipping server: its timers fire at once. */
async function runWithWait(waitSeconds: number, timeoutSeconds: number) {
  const guild = await createTestGuild(bed.db());
  const nodes = [
    { id: 'start', type: 'trigger', trigger: { kind: 'manual' }, next: 'nap' },
    { id: 'nap', type: 'wait', seconds: waitSeconds, next: 'after' },
    { id: 'after', type: 'set', values: { woke: true } },
  ] as FlowNodeValue[];
  const record = await recordFlowRun(bed.db(), { guildId: guild.id, nodes, timeoutSeconds, input: null });
  const outcome = await (await startFlowRun(bed.client, bed.taskQueue, record)).result();
  return { outcome, record: await findFlowRun(bed.db(), guild.id, record.executionId) };
}

describe('wait node (durable timer, time-skipping)', () => {
  it('waits an hour within a two-hour timeout, then goes on', async () => {
    const { outcome, record } = await runWithWait(3_600, 7_200);
    expect(outcome).toMatchObject({ status: 'success', output: { woke: true }, error: null });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(3_600_000);
    expect(record).toMatchObject({ status: 'success', output: { woke: true } });
  });

  it("a wait past the flow's timeout ends the run stopped when the timeout fires", async () => {
    const { outcome, record } = await runWithWait(7_200, 3_600);
    expect(outcome).toMatchObject({ status: 'stopped', output: null, error: "the flow's timeout of 3600 s passed" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(3_600_000);
    expect(record).toMatchObject({ status: 'stopped', error: "the flow's timeout of 3600 s passed" });
  });
});
