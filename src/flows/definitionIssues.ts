import type { DefinitionIssue } from './definitionRules.js';

/** A submitted definition's issues laid out for its editor: those of the flow as a whole, and each node's own. */
export interface IssuesByNode {
  flow: string[];
  nodes: Array<{ id: string; type: string; issues: string[] }>;
}

/** The nodes of a definition as submitted (not yet checked): the id and type of each that has them as strings. */
function submittedNodes(input: unknown): Array<{ id: string; type: string } | undefined> {
  const nodes = (input as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return [];
  return nodes.map((n: unknown) => {
    const { id, type } = (n ?? {}) as { id?: unknown; type?: unknown };
    return typeof id === 'string' ? { id, type: typeof type === 'string' ? type : '?' } : undefined;
  });
}

/**
 * Puts each issue on the node it concerns: the node it names (graph and expression rules), or the node at its
 * schema path (`nodes.2...`) when that node has an id; anything else concerns the flow as a whole.
 */
export function issuesByNode(input: unknown, issues: DefinitionIssue[]): IssuesByNode {
  const nodes = submittedNodes(input);
  const laid: IssuesByNode = { flow: [], nodes: [] };
  const seen = new Map<string, IssuesByNode['nodes'][number]>();
  for (const node of nodes) {
    if (!node || seen.has(node.id)) continue;
    const entry = { ...node, issues: [] };
    seen.set(node.id, entry);
    laid.nodes.push(entry);
  }
  for (const issue of issues) {
    const at = issue.path?.[0] === 'nodes' && typeof issue.path[1] === 'number' ? nodes[issue.path[1]]?.id : undefined;
    const target = seen.get(issue.node ?? at ?? '');
    if (target) target.issues.push(issue.message);
    else laid.flow.push(issue.node ? `node "${issue.node}": ${issue.message}` : issue.message);
  }
  return laid;
}
