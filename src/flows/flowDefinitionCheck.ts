import { Refusal } from '../core/refusal.js';
import { FlowDefinition, type FlowDefinitionValue } from './definition.js';
import { checkFlowGraph, expressionsOf, type DefinitionIssue } from './definitionRules.js';
import { expressionSyntaxError } from './expressions.js';

export type FlowRefusalCode =
  | 'GUILD_NOT_FOUND'
  | 'FLOW_NOT_FOUND'
  | 'INVALID_DEFINITION'
  | 'NOT_A_WEBHOOK_FLOW'
  | 'FLOW_RUN_NOT_FOUND'
  | 'FLOW_RUN_NOT_RUNNING';

/** An operator's flow command refused; INVALID_DEFINITION carries every issue found. */
export class FlowRefusal extends Refusal<FlowRefusalCode> {
  constructor(
    code: FlowRefusalCode,
    message: string,
    readonly issues: DefinitionIssue[] = [],
  ) {
    super(code, message);
  }
}

/**
 * A definition as it may be saved: the schema (node shapes, at most 50 nodes), the graph rules (one trigger, no
 * cycle, nothing unreachable, ports complete) and every expression's syntax; refused with all issues at once.
 */
export function checkFlowDefinition(input: unknown): FlowDefinitionValue {
  const parsed = FlowDefinition.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ node: null, path: i.path, message: `${i.path.join('.') || 'definition'}: ${i.message}` }));
    throw refused(issues);
  }
  const issues = checkFlowGraph(parsed.data);
  for (const node of parsed.data.nodes) {
    for (const expression of expressionsOf(node)) {
      const error = expressionSyntaxError(expression);
      if (error) issues.push({ node: node.id, message: error });
    }
  }
  if (issues.length) throw refused(issues);
  return parsed.data;
}

function refused(issues: DefinitionIssue[]): FlowRefusal {
  const lines = issues.map((i) => (i.node ? `node "${i.node}": ${i.message}` : i.message));
  return new FlowRefusal('INVALID_DEFINITION', `The flow definition is invalid: ${lines.join('; ')}.`, issues);
}
