import { describe, expect, it } from 'vitest';
import { findFlowRun } from '../../db/flows/runs.js';
import { systemClock } from '../../src/core/clock.js';
import type { FlowDefinitionInput } from '../../src/flows/definition.js';
import { relayFlowEvents } from '../../src/flows/eventTrigger.js';
import { changeFlowEnabled, rotateFlowWebhookToken } from '../../src/flows/manageFlows.js';
import { joinMember } from '../../src/guild/joinMember.js';
import { eventually } from '../harness/eventually.js';
import { bearer, snowflake, type TestGuild } from '../harness/fixtures.js';
import { createHttpClient } from '../harness/httpClient.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { flowsGuild, saveFlow } from '../api/flows/flowFixtures.js';

const { db, app, gateway } = useWorkflowTestBed();
const root = () => createHttpClient(app.baseUrl);

const greeting = (kind: { kind: 'event'; event: 'members.joined' | 'members.left' } | { kind: 'webhook' }): FlowDefinitionInput => ({
  name: 'Greet',
  nodes: [
    { id: 'start', type: 'trigger', trigger: kind, next: 'greet' },
    { id: 'greet', type: 'set', values: { hello: kind.kind === 'event' ? '=trigger.data.username' : '=trigger.body.name', via: '=trigger.headers."x-source"' } },
  ],
});

const runsOf = (guildId: string) => db().selectFrom('flow_runs').selectAll().where('guild_id', '=', guildId).orderBy('execution_id').execute();
const relayDeps = () => ({ db: db(), temporal: gateway, clock: systemClock });

async function join(guild: TestGuild, username: string) {
  // Dated back past the trigger's grace period, as an event committed a few seconds ago.
  await db().transaction().execute((trx) =>
    joinMember(trx, { guildId: guild.id, userId: snowflake(), username, bot: false, roleIds: [], inviterId: null, inviteCode: null, at: new Date(Date.now() - 5_000), actor: { type: 'system' }, ifMember: 'refuse' }),
  );
}

describe('event trigger (members.joined / members.left)', () => {
  it('a join starts the enabled members.joined flows of its server once, counted in the quota', async () => {
    const { guild, key } = await flowsGuild(db());
    await relayFlowEvents(relayDeps()); // the cursor starts after the events already there
    const joined = await saveFlow(db(), guild, greeting({ kind: 'event', event: 'members.joined' }));
    await saveFlow(db(), guild, greeting({ kind: 'event', event: 'members.left' }));
    await saveFlow(db(), guild, greeting({ kind: 'event', event: 'members.joined' }), { enabled: false });

    await join(guild, 'ada');
    expect(await relayFlowEvents(relayDeps())).toBe(1);
    expect(await relayFlowEvents(relayDeps())).toBe(0);
    const [run] = await runsOf(guild.id);
    expect(run).toMatchObject({ flow_id: joined.flow.id, source: 'event', event_id: expect.stringMatching(/^evt_/) });
    const done = await eventually(
      () => app.http('GET', `/guilds/${guild.id}/flows/runs/${run!.execution_id}`, { headers: bearer(key) }),
      (r) => r.body.status !== 'running',
    );
    expect(done.body).toMatchObject({ status: 'success', output: { hello: 'ada', via: null } });
    expect((await db().selectFrom('flow_run_quotas').select('used').where('guild_id', '=', guild.id).executeTakeFirst())?.used).toBe(1);
  });

  it('an exhausted quota passes the event over for that flow; a server with Flows off starts nothing', async () => {
    const { guild } = await flowsGuild(db(), { plan: 'free' });
    await relayFlowEvents(relayDeps());
    await saveFlow(db(), guild, greeting({ kind: 'event', event: 'members.joined' }));
    const today = new Date().toISOString().slice(0, 10);
    await db().insertInto('flow_run_quotas').values({ guild_id: guild.id, day: today, used: 100 }).execute();
    await join(guild, 'bob');
    expect(await relayFlowEvents(relayDeps())).toBe(0);
    expect(await runsOf(guild.id)).toEqual([]);

    const off = await flowsGuild(db(), { features: ['members'] });
    await saveFlow(db(), off.guild, greeting({ kind: 'event', event: 'members.joined' }));
    await join(off.guild, 'cy');
    expect(await relayFlowEvents(relayDeps())).toBe(0);
    expect(await runsOf(off.guild.id)).toEqual([]);
  });
});

describe('webhook trigger URL (POST /hooks/flows/<token>)', () => {
  it('starts a run with {headers, query, body} as its trigger data: 202 with the executionId', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow, webhookToken } = await saveFlow(db(), guild, greeting({ kind: 'webhook' }));
    const res = await root()('POST', `/hooks/flows/${webhookToken}?ref=main`, { headers: { 'X-Source': 'ci', Authorization: 'Bearer secret' }, body: { name: 'Grace' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ executionId: expect.any(Number), workflowId: flow.id, status: 'running' });
    const run = await findFlowRun(db(), guild.id, res.body.executionId);
    expect(run).toMatchObject({ source: 'webhook', input: { query: { ref: 'main' }, body: { name: 'Grace' } } });
    expect((run!.input as { headers: Record<string, string> }).headers).toMatchObject({ 'x-source': 'ci' });
    expect((run!.input as { headers: Record<string, string> }).headers.authorization).toBeUndefined();
    const done = await eventually(
      () => app.http('GET', `/guilds/${guild.id}/flows/runs/${res.body.executionId}`, { headers: bearer(key) }),
      (r) => r.body.status !== 'running',
    );
    expect(done.body).toMatchObject({ status: 'success', output: { hello: 'Grace', via: 'ci' } });
  });

  it('the same input through POST runs gives the same run', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, greeting({ kind: 'webhook' }));
    const input = { headers: { 'x-source': 'api' }, query: {}, body: { name: 'Lin' } };
    const res = await app.http('POST', `/guilds/${guild.id}/flows/${flow.id}/runs`, { headers: bearer(key), body: { input, wait: true } });
    expect(res.status).toBe(200);
    expect(res.body.output).toEqual({ hello: 'Lin', via: 'api' });
  });

  it('refusals: unknown or rotated token 404, disabled 409, body over 64 KiB 413, not JSON 415, the 61st call of a minute 429', async () => {
    const { guild } = await flowsGuild(db());
    const { flow, webhookToken } = await saveFlow(db(), guild, greeting({ kind: 'webhook' }));
    const call = (token: string, body: unknown = {}, headers: Record<string, string> = {}) => root()('POST', `/hooks/flows/${token}`, { headers, body });

    expect((await call(`fwh_${'A'.repeat(43)}`)).body).toMatchObject({ error: 'FLOW_NOT_FOUND' });
    expect((await call('not-a-token')).status).toBe(404);
    expect((await call(webhookToken!, 'x'.repeat(10), { 'Content-Type': 'text/plain' })).body).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE' });
    const big = await call(webhookToken!, { blob: 'x'.repeat(65 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('PAYLOAD_TOO_LARGE');

    await db().transaction().execute((trx) => changeFlowEnabled(trx, { guildId: guild.id, id: flow.id, enabled: false, actor: { type: 'system' }, at: new Date() }));
    expect((await call(webhookToken!)).body).toMatchObject({ error: 'FLOW_DISABLED' });
    await db().transaction().execute((trx) => changeFlowEnabled(trx, { guildId: guild.id, id: flow.id, enabled: true, actor: { type: 'system' }, at: new Date() }));

    const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    await db().insertInto('rate_limit_counters').values({ bucket: `flow-hook:${flow.id}`, window_start: windowStart, count: 60 }).onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: 60 })).execute();
    const limited = await call(webhookToken!);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const rotated = await db().transaction().execute((trx) => rotateFlowWebhookToken(trx, { guildId: guild.id, id: flow.id, actor: { type: 'system' }, at: new Date() }));
    expect(rotated).not.toBe(webhookToken);
    expect((await call(webhookToken!)).body).toMatchObject({ error: 'FLOW_NOT_FOUND' });
    expect(await runsOf(guild.id)).toEqual([]);
  });
});
