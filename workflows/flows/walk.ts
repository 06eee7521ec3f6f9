import type { FlowNodeOutcome, FlowNodeValue, FlowRunInput } from '../../src/flows/ids.js';
import { FLOW_CONTEXT_MAX_BYTES, FLOW_OUTPUT_MAX_BYTES, NODE_OUTCOME_OUTPUT_MAX_BYTES } from '../../src/flows/ids.js';
import { jsonSize, nodeFailureMessage } from './nodeFailure.js';
import { runNode } from './nodes.js';
import { FlowTimedOut, type TimeBudget } from './timeBudget.js';

export type WalkEnd = { status: 'success'; output: unknown } | { status: 'error' | 'stopped'; error: string };

/**
 * Walks the snapshotted nodes from the trigger: each node runs once (saved definitions have no cycles), its
 * output kept for later expressions. Ends with the last node's output, with the first node failure, or (with a
 * `budget`, see runNode) `stopped` when the flow's own time passes its timeout. Each node's outcome is appended to
 * `trace` as it happens, so a walk cancelled midway leaves what it did (the run's record keeps it).
 */
export async function walkFlow(run: FlowRunInput, budget?: TimeBudget, trace: FlowNodeOutcome[] = []): Promise<WalkEnd> {
  const byId = new Map<string, FlowNodeValue>(run.nodes.map((n) => [n.id, n]));
  const trigger = run.nodes.find((n) => n.type === 'trigger');
  if (!trigger) return { status: 'error', error: 'the definition has no trigger node' };
  const outputs: Record<string, unknown> = {};
  let contextSize = 0;
  let node: FlowNodeValue | undefined = trigger;
  let last: unknown = null;
  while (node) {
    let step;
    try {
      step = await runNode(node, run, outputs, budget);
    } catch (err) {
      if (err instanceof FlowTimedOut) return ended(trace, node, 'stopped', err.message);
      const message = nodeFailureMessage(err, node);
      if (message === undefined) throw err;
      return ended(trace, node, 'error', message);
    }
    const size = jsonSize(step.output);
    if (size > FLOW_OUTPUT_MAX_BYTES) return ended(trace, node, 'error', `node "${node.id}" (${node.type}): its output is larger than ${FLOW_OUTPUT_MAX_BYTES} bytes`);
    contextSize += size;
    if (contextSize > FLOW_CONTEXT_MAX_BYTES) return ended(trace, node, 'error', `the outputs of the run exceed ${FLOW_CONTEXT_MAX_BYTES} bytes`);
    if (step.stop?.status === 'error') return ended(trace, node, 'error', step.stop.message ?? `stopped with an error by node "${node.id}"`);
    trace.push({ node: node.id, type: node.type, status: 'done', ...(size <= NODE_OUTCOME_OUTPUT_MAX_BYTES ? { output: step.output ?? null } : { outputBytes: size }) });
    outputs[node.id] = step.output;
    last = step.output;
    if (step.stop) return { status: 'success', output: last };
    if (step.next !== undefined && !byId.has(step.next)) return { status: 'error', error: `node "${node.id}" leads to unknown node "${step.next}"` };
    node = step.next === undefined ? undefined : byId.get(step.next);
  }
  return { status: 'success', output: last };
}

function ended(trace: FlowNodeOutcome[], node: FlowNodeValue, status: 'error' | 'stopped', error: string): WalkEnd {
  trace.push({ node: node.id, type: node.type, status: status === 'error' ? 'failed' : 'stopped', error });
  return { status, error };
}
