import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlatformMember, upsertPlatformChannels, upsertPlatformRoles } from '../../db/platform/local.js';
import { findFlowRun } from '../../db/flows/runs.js';
import { systemClock } from '../../src/core/clock.js';
import { cli } from '../admin/cli.js';
import { updateFlow } from '../../src/flows/manageFlows.js';
import { acceptFlowRun } from '../../src/flows/acceptFlowRun.js';
import { flowRunOperation } from '../../src/flows/flowRunOperation.js';
import { relayUnstarted } from '../../src/core/temporal/operation.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, snowflake, type TestGuild } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { flowsGuild, manualFlow, saveFlow, threeNodeFlow } from '../api/flows/flowFixtures.js';
import type { FlowDefinitionInput } from '../../src/flows/definition.js';

const { db, app, gateway } = useWorkflowTestBed();
const operator = cli(db, systemClock, { temporal: gateway });

// A customer's HTTP API on loopback: /json answers JSON, /big more than the cap, /redirect a 302 to a private address,
// /slow answers late.
let api: { url: string; close(): Promise<void>; received: Array<{ method: string; body: string }> };
beforeAll(async () => {
  const received: Array<{ method: string; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(70 * 1024));
      if (req.url === '/redirect') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      // Answers after 1.5 s: longer than a flow timeout of 1 s, shorter than the request's own limit.
      if (req.url === '/slow') return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 1_500);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, echo: Buffer.concat(chunks).toString('utf8') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => new Promise((r) => server.close(() => r())) };
});
afterAll(() => api.close());

async function run(guild: TestGuild, key: string, definition: FlowDefinitionInput, input: unknown = null) {
  const { flow } = await saveFlow(db(), guild, definition);
  const res = await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: { input, wait: true } });
  return { res, flow };
}

describe('flow runs (workflow flow-run)', () => {
  it('three nodes, both branches of if: 200 with the last node output, recorded durably', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const big = await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: { input: { n: 6 }, wait: true } });
    expect(big.status).toBe(200);
    expect(big.body).toMatchObject({ workflowId: flow.id, status: 'success', output: { size: 'big', value: 12 }, error: null });
    expect(big.body.durationMs).toBeGreaterThanOrEqual(0);
    const small = await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: { input: { n: 2 }, wait: true } });
    expect(small.body).toMatchObject({ status: 'success', output: { size: 'small', value: 4 } });
    const record = await findFlowRun(db(), guild.id, big.body.executionId);
    expect(record).toMatchObject({ status: 'success', output: { size: 'big', value: 12 }, source: 'api' });
    const get = await app.http('GET', `/guilds/${guild.id}/flows/runs/${big.body.executionId}`, { headers: bearer(key) });
    expect(get.body).toEqual(big.body);
  });

  it('a run keeps the definition it started with when the flow is updated meanwhile', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, manualFlow([{ id: 'nap', type: 'wait', seconds: 1 }, { id: 'say', type: 'set', values: { v: 'old' } }]));
    const res = await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: {} });
    await db()
      .transaction()
      .execute((trx) => updateFlow(trx, { guildId: guild.id, id: flow.id, definition: manualFlow([{ id: 'say', type: 'set', values: { v: 'new' } }]), actor: { type: 'system' }, at: new Date() }));
    const done = await eventually(
      () => app.http('GET', `/guilds/${guild.id}/flows/runs/${res.body.executionId}`, { headers: bearer(key) }),
      (r) => r.body.status !== 'running',
    );
    expect(done.body).toMatchObject({ status: 'success', output: { v: 'old' } });
    const next = await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: { wait: true } });
    expect(next.body).toMatchObject({ status: 'success', output: { v: 'new' } });
    expect(await findFlowRun(db(), guild.id, next.body.executionId)).toMatchObject({ flowVersion: 2 });
  });

  it('the start relay starts a run whose start was lost after its commit, once', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const { run } = await db()
      .transaction()
      .execute((trx) => acceptFlowRun(trx, { guild: { id: guild.id, plan: 'pro' }, flowId: flow.id, source: 'api', input: { n: 9 }, apiKeyId: null, actor: { type: 'system' }, at: new Date() }));
    const relayDeps = { db: db(), temporal: gateway, clock: systemClock };
    expect(await relayUnstarted(relayDeps, flowRunOperation, { graceMs: 0, batch: 100 })).toBe(1);
    expect(await relayUnstarted(relayDeps, flowRunOperation, { graceMs: 0, batch: 100 })).toBe(0);
    const done = await eventually(
      () => app.http('GET', `/guilds/${guild.id}/flows/runs/${run.executionId}`, { headers: bearer(key) }),
      (r) => r.body.status !== 'running',
    );
    expect(done.body).toMatchObject({ status: 'success', output: { size: 'big', value: 18 } });
  });

  it('switch takes the first true case, else default', async () => {
    const { guild, key } = await flowsGuild(db());
    const def: FlowDefinitionInput = {
      name: 'Sort',
      nodes: [
        { id: 'start', type: 'trigger', trigger: { kind: 'manual' }, next: 'sort' },
        { id: 'sort', type: 'switch', cases: [{ port: 'gold', when: '=trigger.score >= 90' }, { port: 'silver', when: '=trigger.score >= 50' }], next: { gold: 'g', silver: 's', default: 'd' } },
        { id: 'g', type: 'set', values: { medal: 'gold' } },
        { id: 's', type: 'set', values: { medal: 'silver' } },
        { id: 'd', type: 'set', values: { medal: null } },
      ],
    };
    const { flow } = await saveFlow(db(), guild, def);
    const medal = async (score: number) =>
      (await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: { input: { score }, wait: true } })).body.output;
    expect(await medal(95)).toEqual({ medal: 'gold' });
    expect(await medal(60)).toEqual({ medal: 'silver' });
    expect(await medal(10)).toEqual({ medal: null });
  });

  it('http node: JSON answer as output; a body over the cap fails the run; a redirect is not followed', async () => {
    const { guild, key } = await flowsGuild(db());
    const ok = await run(guild, key, manualFlow([{ id: 'call', type: 'http', method: 'POST', url: `${api.url}/json`, body: { n: '=trigger.n' } }]), { n: 3 });
    expect(ok.res.body).toMatchObject({ status: 'success', output: { status: 200, body: { ok: true, echo: '{"n":3}' } } });
    const big = await run(guild, key, manualFlow([{ id: 'call', type: 'http', method: 'GET', url: `${api.url}/big` }]));
    expect(big.res.body).toMatchObject({ status: 'error', error: 'node "call" (http): the response is larger than 65536 bytes', output: null });
    const redirect = await run(guild, key, manualFlow([{ id: 'call', type: 'http', method: 'GET', url: `${api.url}/redirect` }]));
    expect(redirect.res.body).toMatchObject({ status: 'success', output: { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } } });
  });

  it("an http request counts against the flow's timeout: one answering past it ends the run stopped before its next node", async () => {
    const { guild, key } = await flowsGuild(db());
    const { res } = await run(
      guild,
      key,
      manualFlow([{ id: 'call', type: 'http', method: 'GET', url: `${api.url}/slow` }, { id: 'after', type: 'set', values: { ran: true } }], { timeoutSeconds: 1 }),
    );
    expect(res.body).toMatchObject({ status: 'stopped', error: "the flow's timeout of 1 s passed", output: null });
  });

  it.each(['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/', 'http://[::ffff:192.168.0.1]/'])('http node refuses private address %s', async (url) => {
    const { guild, key } = await flowsGuild(db());
    const { res } = await run(guild, key, manualFlow([{ id: 'call', type: 'http', method: 'GET', url }]));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('error');
    expect(res.body.error).toMatch(/^node "call" \(http\): request failed: .*not a public address/);
  });

  it('message and role nodes act on the platform once; stop success ends with its message', async () => {
    const { guild, key } = await flowsGuild(db());
    const channelId = snowflake();
    const roleId = snowflake();
    await upsertPlatformChannels(db(), guild.id, [{ channelId, name: 'general', type: 'text', position: 0 }]);
    await upsertPlatformRoles(db(), guild.id, [{ roleId, name: 'VIP', position: 1 }]);
    const userId = await addTestMember(db(), guild);
    const { res } = await run(
      guild,
      key,
      manualFlow([
        { id: 'hello', type: 'sendMessage', channelId, content: '="Welcome <@" & trigger.userId & ">"' },
        { id: 'give', type: 'addRole', userId: '=trigger.userId', roleId },
        { id: 'take', type: 'removeRole', userId: '=trigger.userId', roleId },
        { id: 'again', type: 'addRole', userId: '=trigger.userId', roleId },
        { id: 'done', type: 'stop', status: 'success', message: 'all set' },
      ]),
      { userId },
    );
    expect(res.body).toMatchObject({ status: 'success', output: { status: 'success', message: 'all set' } });
    const messages = await db().selectFrom('platform_messages').select(['content', 'idempotency_key']).where('guild_id', '=', guild.id).execute();
    expect(messages).toEqual([{ content: `Welcome <@${userId}>`, idempotency_key: `flow/${guild.id}/${res.body.executionId}/hello` }]);
    expect((await findPlatformMember(db(), guild.id, userId))?.role_ids).toEqual([roleId]);
  });

  it('bank and XP nodes: ledger type flow, XP on the curve, each applied once per run and node', async () => {
    const { guild, key } = await flowsGuild(db());
    const userId = await addTestMember(db(), guild);
    const { res } = await run(
      guild,
      key,
      manualFlow([
        { id: 'pay', type: 'bankTransaction', userId: '=trigger.userId', action: 'add', amount: '=trigger.amount', reason: 'Flow reward' },
        { id: 'xp', type: 'xpChange', userId: '=trigger.userId', action: 'add', amount: 500 },
      ]),
      { userId, amount: 250 },
    );
    expect(res.body).toMatchObject({ status: 'success', output: { previousLevel: 0, xp: 500 } });
    const ledger = await db().selectFrom('bank_ledger').select(['type', 'amount', 'reason']).where('guild_id', '=', guild.id).where('user_id', '=', userId).execute();
    expect(ledger.filter((l) => l.type === 'flow')).toEqual([{ type: 'flow', amount: 250, reason: 'Flow reward' }]);
    const effects = await db().selectFrom('flow_effects').select('node_id').where('execution_id', '=', res.body.executionId).orderBy('node_id').execute();
    expect(effects.map((e) => e.node_id)).toEqual(['pay', 'xp']);
  });

  it('a bank removal over the balance fails the run with the bank refusal; nothing is written', async () => {
    const { guild, key } = await flowsGuild(db());
    const userId = await addTestMember(db(), guild);
    const { res } = await run(guild, key, manualFlow([{ id: 'charge', type: 'bankTransaction', userId, action: 'remove', amount: 1_000_000_000 }]));
    expect(res.body).toMatchObject({ status: 'error', error: expect.stringMatching(/^node "charge" \(bankTransaction\): INSUFFICIENT_FUNDS/) });
    expect(await db().selectFrom('flow_effects').selectAll().where('execution_id', '=', res.body.executionId).execute()).toEqual([]);
  });

  it('stop error ends the run error with its message; a node after it never runs', async () => {
    const { guild, key } = await flowsGuild(db());
    const { res } = await run(guild, key, manualFlow([{ id: 'no', type: 'stop', status: 'error', message: '="refused: " & trigger.why' }]), { why: 'too late' });
    expect(res.body).toMatchObject({ status: 'error', error: 'refused: too late', output: null });
  });

  it.each([
    ['endless recursion', '=($f := function($x){ $f($x) }; $f(1))', /ran longer than 250 ms/],
    ['a huge range', '=$count([1..100000000])', /sequence exceeded/],
    ['a regular expression', '=$match("aaa", /a+/)', /regular expressions are not allowed/],
    ['an unknown function', '=$nope(1)', /failed/],
  ])('a runaway or failing expression (%s) fails only its run', async (_name, expression, message) => {
    const { guild, key } = await flowsGuild(db());
    const { res, flow } = await run(guild, key, manualFlow([{ id: 'calc', type: 'set', values: { x: expression } }]));
    expect(res.body.status).toBe('error');
    expect(res.body.error).toMatch(message);
    // The worker is fine: the next run of another flow succeeds.
    const next = await run(guild, key, threeNodeFlow(), { n: 1 });
    expect(next.res.body.status).toBe('success');
    expect(flow.id).not.toBe(next.flow.id);
  });

  it("the flow's timeout ends a run stopped; wait=true answers 202 running when the wait runs out", async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, manualFlow([{ id: 'nap', type: 'wait', seconds: '=30' }], { timeoutSeconds: 2 }));
    const res = await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: { wait: true, timeoutSeconds: 1 } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'running', output: null, finishedAt: null });
    const done = await eventually(
      () => app.http('GET', `/guilds/${guild.id}/flows/runs/${res.body.executionId}`, { headers: bearer(key) }),
      (r) => r.body.status !== 'running',
    );
    expect(done.body).toMatchObject({ status: 'stopped', error: "the flow's timeout of 2 s passed", output: null });
    // The record keeps each node's outcome: the trigger done, the wait the node the timeout passed in.
    expect((await findFlowRun(db(), guild.id, res.body.executionId))?.nodeOutcomes).toEqual([
      { node: 'start', type: 'trigger', status: 'done', output: null },
      { node: 'nap', type: 'wait', status: 'stopped', error: "the flow's timeout of 2 s passed" },
    ]);
  });

  it('a run cancelled by an operator (flow cancel-run) ends cancelled, recorded', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, manualFlow([{ id: 'nap', type: 'wait', seconds: 20 }], { timeoutSeconds: 30 }));
    const res = await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: {} });
    expect(res.status).toBe(202);
    const open = await app.http('GET', `/guilds/${guild.id}/flows/runs/${res.body.executionId}`, { headers: bearer(key) });
    expect(open.body.status).toBe('running');
    const cancel = await operator('flow', 'cancel-run', '--guild', guild.id, '--execution', String(res.body.executionId), '--json');
    expect(cancel.json()).toEqual({ executionId: res.body.executionId, cancelRequested: true });
    const done = await eventually(
      () => app.http('GET', `/guilds/${guild.id}/flows/runs/${res.body.executionId}`, { headers: bearer(key) }),
      (r) => r.body.status !== 'running',
    );
    expect(done.body).toMatchObject({ status: 'cancelled', error: 'cancelled by an operator' });
    // Cancelled in its wait: the trigger's outcome is kept, the wait it was in has none.
    expect(await findFlowRun(db(), guild.id, res.body.executionId)).toMatchObject({ status: 'cancelled', nodeOutcomes: [{ node: 'start', status: 'done' }] });
  });
});
