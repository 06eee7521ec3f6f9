import type { FlowDefinitionValue, FlowNodeValue, TriggerSpec } from './definition.js';

/** One reason a definition is refused when it is saved: where (a node id or the whole flow) and why. */
export interface DefinitionIssue {
  node: string | null;
  message: string;
  /** Where in the definition a schema issue sits (`nodes.2.amount`), so a node's issue can be shown on it. */
  path?: PropertyKey[];
}

/** The nodes a node may lead to, by port (`next` for a plain node). */
export function successors(node: FlowNodeValue): Array<[port: string, target: string]> {
  if (node.type === 'stop') return [];
  if (node.type === 'if' || node.type === 'switch') return Object.entries(node.next);
  return node.next ? [['next', node.next]] : [];
}

/** Every expression string of a node (a string starting with `=`), wherever it sits. */
export function expressionsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith('=') ? [value.slice(1)] : [];
  if (Array.isArray(value)) return value.flatMap(expressionsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(expressionsOf);
  return [];
}

export const triggerOf = (definition: FlowDefinitionValue): TriggerSpec => {
  const node = definition.nodes.find((n) => n.type === 'trigger');
  if (!node || node.type !== 'trigger') throw new Error('A checked definition has one trigger node.');
  return node.trigger;
};

function portIssues(node: FlowNodeValue): DefinitionIssue[] {
  if (node.type !== 'switch') return [];
  const ports = node.cases.map((c) => c.port);
  const issues: DefinitionIssue[] = [];
  if (new Set(ports).size !== ports.length) issues.push({ node: node.id, message: 'case ports must be distinct' });
  if (ports.includes('default')) issues.push({ node: node.id, message: '`default` is the port taken when no case matches; no case may use it' });
  const expected = new Set([...ports, 'default']);
  const given = Object.keys(node.next);
  const missing = [...expected].filter((p) => !given.includes(p));
  const extra = given.filter((p) => !expected.has(p));
  if (missing.length) issues.push({ node: node.id, message: `next has no node for port(s) ${missing.join(', ')}` });
  if (extra.length) issues.push({ node: node.id, message: `next names port(s) no case has: ${extra.join(', ')}` });
  return issues;
}

/** A cycle through `start`'s descendants, as the node ids on it, or undefined. */
function findCycle(byId: Map<string, FlowNodeValue>, start: string): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const [, target] of successors(byId.get(id)!)) {
      if (!byId.has(target)) continue;
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  return visit(start);
}

function reachableFrom(byId: Map<string, FlowNodeValue>, start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id) || !byId.has(id)) continue;
    seen.add(id);
    for (const [, target] of successors(byId.get(id)!)) queue.push(target);
  }
  return seen;
}

/**
 * The graph rules a schema cannot say: unique ids, one trigger that nothing leads back to, every `next` naming
 * a node, the ports of if and switch complete, no cycle, every node reachable from the trigger, literal waits
 * within the flow's timeout. Empty when the definition may be saved.
 */
export function checkFlowGraph(definition: FlowDefinitionValue): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const byId = new Map<string, FlowNodeValue>();
  for (const node of definition.nodes) {
    if (byId.has(node.id)) issues.push({ node: node.id, message: 'node ids must be unique' });
    byId.set(node.id, node);
  }
  const triggers = definition.nodes.filter((n) => n.type === 'trigger');
  if (triggers.length !== 1) issues.push({ node: null, message: `a flow has exactly one trigger node (found ${triggers.length})` });
  for (const node of definition.nodes) {
    issues.push(...portIssues(node));
    for (const [port, target] of successors(node)) {
      if (!byId.has(target)) issues.push({ node: node.id, message: `${port} names unknown node "${target}"` });
      else if (byId.get(target)!.type === 'trigger') issues.push({ node: node.id, message: `${port} leads back to the trigger` });
    }
    if (node.type === 'wait' && typeof node.seconds === 'number' && node.seconds >= definition.timeoutSeconds) {
      issues.push({ node: node.id, message: `waits ${node.seconds} s, not within the flow timeout of ${definition.timeoutSeconds} s` });
    }
  }
  if (issues.length || triggers.length !== 1) return issues;
  const start = triggers[0]!.id;
  const cycle = findCycle(byId, start);
  if (cycle) return [{ node: cycle[0]!, message: `cycle: ${cycle.join(' -> ')}` }];
  const reachable = reachableFrom(byId, start);
  for (const node of definition.nodes) {
    if (!reachable.has(node.id)) issues.push({ node: node.id, message: 'not reachable from the trigger' });
  }
  return issues;
}
