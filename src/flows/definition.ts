import { SnowflakeId } from '../core/contract.js';
import { z } from '../core/zod.js';

/**
 * A flow's definition as operators write it (`npm run admin -- flow create --file def.json`). The JSON Schema
 * published in docs/flows.md and served at /api/v1/flows/definition.schema.json is generated from these schemas.
 * A string that starts with `=` is a JSONata expression over `{trigger, nodes}` (docs/flows.md), evaluated when
 * its node runs; every other value is taken as written.
 */

export const MAX_NODES = 50;
export const MAX_EXPRESSION_LENGTH = 2_000;
export const MAX_FLOW_TIMEOUT_SECONDS = 86_400;
export const FLOW_EVENTS = ['members.joined', 'members.left'] as const;

const NodeId = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'must be 1 to 40 letters, digits, _ or -, starting with a letter');
const PortName = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'must be 1 to 40 letters, digits, _ or -, starting with a letter');

export const Expression = z
  .string()
  .min(2)
  .max(MAX_EXPRESSION_LENGTH + 1)
  .startsWith('=')
  .openapi({ description: 'A JSONata expression after the leading `=`, evaluated over `{trigger, nodes}`.' });

/** A value that is either written out or computed by an expression. */
const valueOr = <T extends z.ZodType>(schema: T) => z.union([Expression, schema]);
const Text = (max: number) => valueOr(z.string().min(1).max(max));
/** Any JSON value; strings starting with `=` inside it are expressions. */
const Template = z.json();

const next = { next: NodeId.optional().openapi({ description: 'The node that runs after this one; none ends the run with this output.' }) };

const TriggerNode = z.strictObject({
  id: NodeId,
  type: z.literal('trigger'),
  trigger: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('manual') }),
    z.strictObject({ kind: z.literal('webhook') }),
    z.strictObject({ kind: z.literal('event'), event: z.enum(FLOW_EVENTS) }),
  ]),
  ...next,
});

const SetNode = z.strictObject({ id: NodeId, type: z.literal('set'), values: z.record(z.string().min(1).max(100), Template), ...next });

const IfNode = z.strictObject({
  id: NodeId,
  type: z.literal('if'),
  condition: valueOr(z.boolean()).openapi({ description: 'True (exactly `true`) takes port `true`, anything else port `false`.' }),
  next: z.strictObject({ true: NodeId, false: NodeId }),
});

const SwitchNode = z.strictObject({
  id: NodeId,
  type: z.literal('switch'),
  cases: z
    .array(z.strictObject({ port: PortName, when: valueOr(z.boolean()) }))
    .min(1)
    .max(20)
    .openapi({ description: 'The first case whose `when` is exactly true names the port taken; none: port `default`.' }),
  next: z.record(PortName, NodeId).openapi({ description: 'One node per case port, and one for `default`.' }),
});

const WaitNode = z.strictObject({
  id: NodeId,
  type: z.literal('wait'),
  seconds: valueOr(z.number().int().min(1).max(MAX_FLOW_TIMEOUT_SECONDS)).openapi({ description: 'A durable timer; within the flow timeout.' }),
  ...next,
});

const HttpNode = z.strictObject({
  id: NodeId,
  type: z.literal('http'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  url: Text(2_000),
  headers: z.record(z.string().min(1).max(100), Text(2_000)).optional(),
  body: Template.optional().openapi({ description: 'Sent as JSON (not with GET).' }),
  ...next,
});

const SendMessageNode = z.strictObject({
  id: NodeId,
  type: z.literal('sendMessage'),
  channelId: valueOr(SnowflakeId),
  content: Text(2_000),
  ...next,
});

const roleNode = <T extends 'addRole' | 'removeRole'>(type: T) =>
  z.strictObject({ id: NodeId, type: z.literal(type), userId: valueOr(SnowflakeId), roleId: valueOr(SnowflakeId), ...next });

const BankNode = z.strictObject({
  id: NodeId,
  type: z.literal('bankTransaction'),
  userId: valueOr(SnowflakeId),
  action: z.enum(['add', 'remove']),
  amount: valueOr(z.number().int().min(1).max(1_000_000_000_000)),
  reason: Text(500).optional(),
  ...next,
});

const XpNode = z.strictObject({
  id: NodeId,
  type: z.literal('xpChange'),
  userId: valueOr(SnowflakeId),
  action: z.enum(['add', 'remove', 'set']),
  unit: z.enum(['xp', 'levels']).default('xp'),
  amount: valueOr(z.number().int().min(0).max(2_000_000_000)),
  ...next,
});

const StopNode = z.strictObject({
  id: NodeId,
  type: z.literal('stop'),
  status: z.enum(['success', 'error']),
  message: Text(500).optional(),
});

export const FlowNode = z.discriminatedUnion('type', [
  TriggerNode,
  SetNode,
  IfNode,
  SwitchNode,
  WaitNode,
  HttpNode,
  SendMessageNode,
  roleNode('addRole'),
  roleNode('removeRole'),
  BankNode,
  XpNode,
  StopNode,
]);

export const FlowDefinition = z
  .strictObject({
    name: z.string().min(1).max(100),
    description: z.string().max(500).nullable().optional(),
    timeoutSeconds: z.number().int().min(1).max(MAX_FLOW_TIMEOUT_SECONDS).default(60),
    nodes: z.array(FlowNode).min(2).max(MAX_NODES),
  })
  .openapi('FlowDefinition');

export type FlowDefinitionInput = z.input<typeof FlowDefinition>;
export type FlowDefinitionValue = z.output<typeof FlowDefinition>;
export type FlowNodeValue = z.output<typeof FlowNode>;
export type TriggerSpec = z.output<typeof TriggerNode>['trigger'];

/** The definition's JSON Schema (draft 2020-12), published for editors and validators. */
export const flowDefinitionJsonSchema = () => z.toJSONSchema(FlowDefinition, { io: 'input', unrepresentable: 'any' });
