import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { flowDefinitionJsonSchema, type FlowDefinitionInput } from '../../../src/flows/definition.js';
import { checkFlowDefinition, FlowRefusal } from '../../../src/flows/flowDefinitionCheck.js';

type Nodes = FlowDefinitionInput['nodes'];
const flow = (nodes: Nodes, extra: Partial<FlowDefinitionInput> = {}): FlowDefinitionInput => ({ name: 'F', nodes, ...extra });
const trigger = (next?: string): Nodes[number] => ({ id: 'start', type: 'trigger', trigger: { kind: 'manual' }, ...(next ? { next } : {}) });

function issuesOf(definition: unknown): string[] {
  try {
    checkFlowDefinition(definition);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(FlowRefusal);
    expect((err as FlowRefusal).code).toBe('INVALID_DEFINITION');
    return (err as FlowRefusal).issues.map((i) => (i.node ? `${i.node}: ${i.message}` : i.message));
  }
}

describe('flow definitions as saved', () => {
  it('accepts a valid flow and applies the default timeout', () => {
    const saved = checkFlowDefinition(flow([trigger('a'), { id: 'a', type: 'set', values: { x: '=trigger.x' } }]));
    expect(saved.timeoutSeconds).toBe(60);
  });

  it.each([
    ['a cycle', [trigger('a'), { id: 'a', type: 'set', values: {}, next: 'b' }, { id: 'b', type: 'set', values: {}, next: 'a' }], ['a: cycle: a -> b -> a']],
    ['an unreachable node', [trigger('a'), { id: 'a', type: 'set', values: {} }, { id: 'lost', type: 'set', values: {} }], ['lost: not reachable from the trigger']],
    ['an unknown next', [trigger('a'), { id: 'a', type: 'set', values: {}, next: 'nowhere' }], ['a: next names unknown node "nowhere"']],
    ['a way back to the trigger', [trigger('a'), { id: 'a', type: 'set', values: {}, next: 'start' }], ['a: next leads back to the trigger']],
    ['duplicate ids', [trigger('a'), { id: 'a', type: 'set', values: {} }, { id: 'a', type: 'set', values: {} }], ['a: node ids must be unique']],
    [
      'two triggers',
      [trigger('a'), { id: 'a', type: 'set', values: {} }, { id: 't2', type: 'trigger', trigger: { kind: 'webhook' }, next: 'a' }],
      ['a flow has exactly one trigger node (found 2)'],
    ],
    [
      'switch ports that do not match its cases',
      [
        trigger('s'),
        { id: 's', type: 'switch', cases: [{ port: 'a', when: true }, { port: 'a', when: false }], next: { a: 'x', b: 'x' } },
        { id: 'x', type: 'set', values: {} },
      ],
      ['s: case ports must be distinct', 's: next has no node for port(s) default', 's: next names port(s) no case has: b'],
    ],
    ['a wait longer than the timeout', [trigger('w'), { id: 'w', type: 'wait', seconds: 60 }], ['w: waits 60 s, not within the flow timeout of 30 s']],
    ['an expression that does not parse', [trigger('a'), { id: 'a', type: 'set', values: { x: '=1 +' } }], [expect.stringMatching(/^a: expression "1 \+" failed/)]],
  ] as Array<[string, Nodes, unknown[]]>)('refuses %s', (_name, nodes, expected) => {
    expect(issuesOf(flow(nodes, { timeoutSeconds: 30 }))).toEqual(expected);
  });

  it('refuses more than 50 nodes, unknown node types and unknown fields', () => {
    const many = [trigger('n0'), ...Array.from({ length: 50 }, (_, i) => ({ id: `n${i}`, type: 'set' as const, values: {}, ...(i < 49 ? { next: `n${i + 1}` } : {}) }))];
    expect(issuesOf(flow(many))).toEqual([expect.stringMatching(/^nodes: Too big/)]);
    expect(issuesOf({ name: 'F', nodes: [trigger('a'), { id: 'a', type: 'exec', code: 'rm -rf /' }] })[0]).toMatch(/^nodes\.1/);
    expect(issuesOf({ name: 'F', nodes: [trigger('a'), { id: 'a', type: 'set', values: {}, eval: 'x' }] })[0]).toMatch(/^nodes\.1/);
  });

  it('publishes its JSON Schema in docs/flow-definition.schema.json, generated from the same schemas', async () => {
    const published = JSON.parse(await readFile(new URL('../../../docs/flow-definition.schema.json', import.meta.url), 'utf8'));
    expect(published).toEqual(flowDefinitionJsonSchema());
    expect(published.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });
});
