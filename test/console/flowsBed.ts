import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../db/schema.js';
import type { FlowDefinitionInput } from '../../src/flows/definition.js';
import { createFlow } from '../../src/flows/manageFlows.js';
import { eventually } from '../harness/eventually.js';
import { createHttpClient, type TestResponse } from '../harness/httpClient.js';
import type { TestApp } from '../harness/testApp.js';
import { consoleClient, consoleUserAudit, errorCodeOf, managedGuild } from './consoleClient.js';

/** A webhook flow: its trigger branches on the call's `status`; `ok` ends with `said`, anything else stops with an error. */
export const deployFlow = (said = 'shipped'): FlowDefinitionInput => ({
  name: 'Deploy notice',
  timeoutSeconds: 30,
  nodes: [
    { id: 'start', type: 'trigger', trigger: { kind: 'webhook' }, next: 'check' },
    { id: 'check', type: 'if', condition: '=trigger.body.status = "ok"', next: { true: 'done', false: 'fail' } },
    { id: 'done', type: 'set', values: { said } },
    { id: 'fail', type: 'stop', status: 'error', message: '="deploy failed: " & trigger.body.status' },
  ],
});

const badNode = deployFlow();
/** Definitions the flow forms refuse: the text sent, the issues beside each node, the issues on the whole definition. */
export const badDefinitions: Array<[string, string, Record<string, string[]>, string[]]> = [
  ['text that is not JSON', '{"name": "x",', {}, ['The definition is not JSON']],
  [
    'a node that breaks the schema',
    JSON.stringify({ ...badNode, nodes: [badNode.nodes[0], badNode.nodes[1], { id: 'done', type: 'set', values: 'nope' }, badNode.nodes[3]] }),
    { done: ['nodes.2.values: '] },
    [],
  ],
  [
    'nodes that break the graph rules and an expression that does not parse',
    JSON.stringify({ ...badNode, nodes: [badNode.nodes[0], { ...badNode.nodes[1], next: { true: 'done', false: 'nowhere' } }, { id: 'done', type: 'set', values: { x: '=1 +' } }, badNode.nodes[3]] }),
    { check: ['false names unknown node "nowhere"'], done: ['expression "1 +" failed'] },
    [],
  ],
  ['two triggers', JSON.stringify({ ...badNode, nodes: [...badNode.nodes, { id: 'again', type: 'trigger', trigger: { kind: 'manual' }, next: 'done' }] }), {}, ['a flow has exactly one trigger node (found 2)']],
];

/** A refused definition's page: 422 INVALID_DEFINITION, the text kept as sent, each issue beside its node or on the textarea. */
export function expectRefused(res: TestResponse, text: string, byNode: Record<string, string[]>, onFlow: string[]) {
  expect([res.status, errorCodeOf(res)]).toEqual([422, 'INVALID_DEFINITION']);
  // The text as sent, escaped, in the textarea.
  const kept = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  expect(res.text).toContain(`>${kept}</textarea>`);
  for (const [node, messages] of Object.entries(byNode)) {
    const entry = new RegExp(`<li id="flow-node-${node}" data-node="${node}" data-node-errors="(\\d+)">(.*?)</li></ul></li>`, 's').exec(res.text);
    expect(entry, node).not.toBeNull();
    for (const message of messages) expect(entry![2]).toContain(message.replaceAll('"', '&quot;'));
    expect(res.text).toContain(`href="#flow-node-${node}"`);
  }
  for (const message of onFlow) {
    expect(res.text).toContain('href="#flow-definition"');
    expect(res.text).toMatch(new RegExp(`id="flow-definition-error"[^>]*>.*?${message.replace(/[()]/g, '\\$&')}`, 's'));
  }
}

/**
 * The flows pages' bed, shared by flows.test.ts and flowCreate.test.ts: a managed server with its manager signed in,
 * flows saved through the CLI's use case, runs started by a flow's webhook URL, and what the flows' actions write.
 */
export function flowsBed(db: () => Kysely<Database>, app: TestApp) {
  async function signedIn() {
    const guild = await managedGuild(db(), 'Flows Guild');
    const client = consoleClient(app.baseUrl);
    await client.signIn(guild.managerId);
    const s = `/console/servers/${guild.id}/flows`;
    return { guild, client, s };
  }

  async function saveFlow(guildId: string, definition: FlowDefinitionInput, enabled = true) {
    return db().transaction().execute((trx) => createFlow(trx, { guildId, definition, enabled, actor: { type: 'system' }, at: new Date() }));
  }

  /** Calls the flow's webhook URL and waits until its run ended; the run's executionId. */
  async function runByWebhook(token: string, body: unknown): Promise<number> {
    const res = await createHttpClient(app.baseUrl)('POST', `/hooks/flows/${token}`, { body });
    expect(res.status).toBe(202);
    const executionId = (res.body as { executionId: number }).executionId;
    const ended = await eventually(
      () => db().selectFrom('flow_runs').select('status').where('execution_id', '=', executionId).executeTakeFirstOrThrow(),
      (r) => r.status !== 'running',
    );
    expect(ended.status).not.toBe('running');
    return executionId;
  }

  const flowRow = (id: number) => db().selectFrom('flows').select(['enabled', 'version', 'definition', 'name']).where('id', '=', id).executeTakeFirst();
  /** The console user's flows audit rows, without their data. */
  const consoleAudit = async (guildId: string) =>
    (await consoleUserAudit(db(), guildId)).filter((a) => a.action.startsWith('flows.')).map(({ actor_type, actor_id, action, target_id }) => ({ actor_type, actor_id, action, target_id }));
  const flowCount = async (guildId: string) => (await db().selectFrom('flows').select('id').where('guild_id', '=', guildId).execute()).length;

  return { signedIn, saveFlow, runByWebhook, flowRow, consoleAudit, flowCount };
}
