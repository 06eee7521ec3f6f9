import type { Kysely } from 'kysely';
import { findFlow, type FlowRecord } from '../../db/flows/flows.js';
import { insertFlowRun, type FlowRunRecord, type FlowRunSource } from '../../db/flows/runs.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { flowDisabled, flowNotFound, flowNotRunnable } from '../core/errors.js';
import type { FlowDefinitionValue } from './definition.js';
import { takeFlowRunQuota } from './quota.js';

export interface FlowRunRequestInput {
  guild: { id: string; plan: string };
  flowId: number;
  source: Exclude<FlowRunSource, 'event'>;
  input: unknown;
  apiKeyId: number | null;
  actor: AuditActor;
  requestId?: string;
  at: Date;
}

/** The run a flow would start now, with the flow's current definition snapshotted. */
export const newRunOf = (flow: FlowRecord, r: { source: FlowRunSource; input: unknown; apiKeyId: number | null; eventId: string | null; at: Date }) => ({
  guildId: flow.guildId,
  flowId: flow.id,
  flowVersion: flow.version,
  source: r.source,
  nodes: (flow.definition as FlowDefinitionValue).nodes,
  timeoutSeconds: flow.timeoutSeconds,
  input: r.input ?? null,
  apiKeyId: r.apiKeyId,
  eventId: r.eventId,
  startedAt: r.at,
});

/**
 * Accepts a run of a Manual or Webhook flow in the caller's transaction: the flow must exist (404
 * FLOW_NOT_FOUND), be enabled (409 FLOW_DISABLED) and not be event-triggered (409 FLOW_NOT_RUNNABLE); one run is
 * taken from today's quota (429 FLOW_RUN_QUOTA_EXHAUSTED); the run is recorded `running` with its audit row. Its
 * workflow starts after the commit (flowRunOperation).
 */
export async function acceptFlowRun(trx: Kysely<Database>, r: FlowRunRequestInput): Promise<{ flow: FlowRecord; run: FlowRunRecord }> {
  const flow = await findFlow(trx, r.guild.id, r.flowId);
  if (!flow) throw flowNotFound();
  if (!flow.enabled) throw flowDisabled();
  if (flow.triggerType === 'event') throw flowNotRunnable(`${flow.triggerType} (${flow.triggerEvent})`);
  const run = (await insertFlowRun(trx, newRunOf(flow, { ...r, eventId: null })))!;
  await writeAudit(trx, {
    guildId: r.guild.id,
    actor: r.actor,
    action: 'flows.run',
    target: { type: 'flow', id: String(flow.id) },
    requestId: r.requestId,
    data: { executionId: run.executionId, source: r.source, flowVersion: flow.version },
  });
  // Last, so the server's quota row stays locked as briefly as possible: every run of the server takes it.
  await takeFlowRunQuota(trx, r.guild, r.at);
  return { flow, run };
}
