import type { Kysely } from 'kysely';
import { findFlow } from '../../db/flows/flows.js';
import { findFlowRun, listRunsOfFlow } from '../../db/flows/runs.js';
import type { Database } from '../../db/schema.js';
import { flowRunNotFound } from '../core/errors.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import type { FlowBody, FlowRunBody } from './contract.js';
import { toFlowBody, toFlowRunBody } from './flowViews.js';
import type { FlowNodeOutcome } from './ids.js';
import { requireFlow } from './manageFlows.js';
import { readFlowRun } from './readFlowRun.js';

/** One flow and a page of its runs, newest first, each as GET runs/{executionId} gives it from the record. */
export async function readFlowRunPage(
  db: Kysely<Database>,
  guildId: string,
  flowId: number,
  page: { before?: number; limit: number },
): Promise<{ flow: FlowBody; items: FlowRunBody[]; nextCursor: string | null }> {
  const flow = toFlowBody(await requireFlow(db, guildId, flowId));
  const rows = await listRunsOfFlow(db, guildId, flowId, { before: page.before, limit: page.limit + 1 });
  const items = rows.slice(0, page.limit).map(toFlowRunBody);
  return { flow, items, nextCursor: rows.length > page.limit ? String(items.at(-1)!.executionId) : null };
}

/** A node of the run's snapshot and what it did (none: the run did not reach it, or has not ended yet). */
export interface RunNode {
  id: string;
  type: string;
  outcome: FlowNodeOutcome | null;
}

/**
 * One run as GET runs/{executionId} gives it (the workflow while open, the record once ended), with the nodes it
 * ran on (its snapshot) and each node's outcome, the flow's name; `outcomesKept` is false for runs that ended before outcomes were
 * recorded.
 */
export async function readFlowRunNodes(deps: { db: Kysely<Database>; temporal: TemporalGateway }, guildId: string, executionId: number) {
  const record = await findFlowRun(deps.db, guildId, executionId);
  if (!record) throw flowRunNotFound();
  const run = await readFlowRun(deps, guildId, executionId);
  const outcomes = (record.nodeOutcomes ?? []) as FlowNodeOutcome[];
  const byNode = new Map(outcomes.map((o) => [o.node, o]));
  const nodes: RunNode[] = (record.nodes as Array<{ id: string; type: string }>).map((n) => ({ id: n.id, type: n.type, outcome: byNode.get(n.id) ?? null }));
  // The flow's name now, or null once the flow was deleted (its runs stay readable).
  const flowName = (await findFlow(deps.db, guildId, record.flowId))?.name ?? null;
  return { run, flowName, source: record.source, flowVersion: record.flowVersion, nodes, outcomesKept: record.nodeOutcomes !== null };
}
