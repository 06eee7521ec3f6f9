import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import { insertFlowRun, type FlowRunRecord } from '../../db/flows/runs.js';
import type { Database } from '../../db/schema.js';
import { flowRunInput } from '../../src/flows/flowRunOperation.js';
import { flowRunWorkflow, flowRunWorkflowId, type FlowNodeValue } from '../../src/flows/ids.js';

/** A run of `nodes` recorded as the API records one (flow 1, version 1, by a key-less API call), accepted now. */
export async function recordFlowRun(
  db: Kysely<Database>,
  run: { guildId: string; nodes: FlowNodeValue[]; timeoutSeconds: number; input: unknown },
): Promise<FlowRunRecord> {
  const record = await insertFlowRun(db, {
    ...run,
    flowId: 1,
    flowVersion: 1,
    source: 'api',
    apiKeyId: null,
    eventId: null,
    startedAt: new Date(),
  });
  if (!record) throw new Error('An API run is always recorded (only event runs can already exist).');
  return record;
}

/** Starts a recorded run's workflow on `taskQueue` under its real workflow id, as the API does. */
export const startFlowRun = (client: Client, taskQueue: string, record: FlowRunRecord) =>
  client.workflow.start(flowRunWorkflow.name, {
    args: [flowRunInput(record)],
    taskQueue,
    workflowId: flowRunWorkflowId(record.guildId, record.executionId),
  });
