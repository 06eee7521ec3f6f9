import { describe, expect, it } from 'vitest';
import { findFlowRun } from '../../../db/flows/runs.js';
import { FEATURES } from '../../../src/core/features.js';
import { flowRunWorkflowId } from '../../../src/flows/ids.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer } from '../../harness/fixtures.js';
import { eventually } from '../../harness/eventually.js';
import { countWrites } from '../../harness/rows.js';
import { flowsGuild, manualFlow, saveFlow, threeNodeFlow } from './flowFixtures.js';

const NOW = new Date('2026-11-24T22:00:00.000Z');

// Runs start on a task queue nobody polls: the HTTP layer is under test here (the workflows in test/workflows).
const { db, app, gateway } = useApiTestBed({ now: NOW, temporal: true });

const runFlow = (guildId: string, key: string, flowId: number | string, body: unknown, headers: Record<string, string> = {}) =>
  app.http('POST', `/guilds/${guildId}/flows/${flowId}/runs`, { headers: { ...bearer(key), ...headers }, body });

const flowRunRows = (guildId: string) => db().selectFrom('flow_runs').selectAll().where('guild_id', '=', guildId).execute();
const quotaUsed = async (guildId: string) =>
  (await db().selectFrom('flow_run_quotas').select('used').where('guild_id', '=', guildId).executeTakeFirst())?.used ?? 0;

describe('GET /flows', () => {
  it('lists every flow with runnable = enabled and manual or webhook', async () => {
    const { guild, key } = await flowsGuild(db());
    const manual = await saveFlow(db(), guild, threeNodeFlow());
    const disabled = await saveFlow(db(), guild, manualFlow([{ id: 'a', type: 'set', values: {} }], { name: 'Off' }), { enabled: false });
    const event = await saveFlow(db(), guild, manualFlow([{ id: 'a', type: 'set', values: {} }], { name: 'Welcome', trigger: { id: 'start', type: 'trigger', trigger: { kind: 'event', event: 'members.joined' } } }));
    const hook = await saveFlow(db(), guild, manualFlow([{ id: 'a', type: 'set', values: {} }], { name: 'Hook', trigger: { id: 'start', type: 'trigger', trigger: { kind: 'webhook' } } }));
    const res = await app.http('GET', `/guilds/${guild.id}/flows`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body.items.map((f: { id: number; runnable: boolean; triggerType: string; triggerEvent: string | null }) => [f.id, f.runnable, f.triggerType, f.triggerEvent])).toEqual([
      [manual.flow.id, true, 'manual', null],
      [disabled.flow.id, false, 'manual', null],
      [event.flow.id, false, 'event', 'members.joined'],
      [hook.flow.id, true, 'webhook', null],
    ]);
    expect(res.body.items[0]).toEqual({
      id: manual.flow.id,
      name: 'Double it',
      description: null,
      enabled: true,
      triggerType: 'manual',
      triggerEvent: null,
      runnable: true,
      timeoutSeconds: 30,
      version: 1,
      updatedAt: expect.any(String),
    });
  });

  it('409 FEATURE_DISABLED with Flows off; 403 INSUFFICIENT_SCOPE without flows:read', async () => {
    const off = await flowsGuild(db(), { features: FEATURES.filter((f) => f !== 'flows') });
    expect((await app.http('GET', `/guilds/${off.guild.id}/flows`, { headers: bearer(off.key) })).body).toMatchObject({ error: 'FEATURE_DISABLED' });
    const noScope = await flowsGuild(db(), { scopes: ['flows:run'] });
    const res = await app.http('GET', `/guilds/${noScope.guild.id}/flows`, { headers: bearer(noScope.key) });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'flows:read' });
  });
});

describe('POST /flows/{workflowId}/runs', () => {
  it('202 FlowRun running, recorded with the definition snapshotted, one run taken from the quota', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const res = await runFlow(guild.id, key, flow.id, { input: { n: 1 } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      executionId: expect.any(Number),
      workflowId: flow.id,
      status: 'running',
      output: null,
      error: null,
      startedAt: NOW.toISOString(),
      finishedAt: null,
      durationMs: null,
    });
    const run = await findFlowRun(db(), guild.id, res.body.executionId);
    expect(run).toMatchObject({ status: 'running', source: 'api', input: { n: 1 }, flowVersion: 1, timeoutSeconds: 30 });
    expect(run!.nodes).toEqual((flow.definition as { nodes: unknown[] }).nodes);
    // Started once the answer is out (the start relay would otherwise, within seconds).
    const started = await eventually(() => findFlowRun(db(), guild.id, res.body.executionId), (r) => r?.workflowStartedAt !== null);
    expect(started!.workflowStartedAt).not.toBeNull();
    expect(await quotaUsed(guild.id)).toBe(1);
    const get = await app.http('GET', `/guilds/${guild.id}/flows/runs/${res.body.executionId}`, { headers: bearer(key) });
    expect(get.body).toEqual(res.body);
  });

  it('with wait, answers 202 still running when the wait runs out (nobody runs it here)', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const started = Date.now();
    const res = await runFlow(guild.id, key, flow.id, { wait: true, timeoutSeconds: 1 });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('running');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('an Idempotency-Key replay answers the same run and starts nothing more', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const first = await runFlow(guild.id, key, flow.id, { input: 1 }, { 'Idempotency-Key': 'run-1' });
    const again = await runFlow(guild.id, key, flow.id, { input: 1 }, { 'Idempotency-Key': 'run-1' });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await flowRunRows(guild.id)).toHaveLength(1);
    expect(await quotaUsed(guild.id)).toBe(1);
    const other = await runFlow(guild.id, key, flow.id, { input: 2 }, { 'Idempotency-Key': 'run-1' });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('the quota: the last run of the day is taken, the next one is 429 with Retry-After until the next UTC day', async () => {
    const { guild, key } = await flowsGuild(db(), { plan: 'free' });
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    await db().insertInto('flow_run_quotas').values({ guild_id: guild.id, day: '2026-11-24', used: 99 }).execute();
    expect((await runFlow(guild.id, key, flow.id, {})).status).toBe(202);
    const before = await countWrites(db(), guild.id);
    const res = await runFlow(guild.id, key, flow.id, {});
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      error: 'FLOW_RUN_QUOTA_EXHAUSTED',
      message: expect.stringContaining('100 flow runs'),
      limit: 100,
      resetAt: '2026-11-25T00:00:00.000Z',
    });
    expect(res.headers['retry-after']).toBe('7200');
    expect(await quotaUsed(guild.id)).toBe(100);
    expect(await flowRunRows(guild.id)).toHaveLength(1);
    expect(await countWrites(db(), guild.id)).toEqual(before);
  });

  it.each([
    ['unknown flow', async () => 999_999, 404, 'FLOW_NOT_FOUND'],
    ['disabled flow', async (g: Awaited<ReturnType<typeof flowsGuild>>['guild']) => (await saveFlow(db(), g, threeNodeFlow(), { enabled: false })).flow.id, 409, 'FLOW_DISABLED'],
    [
      'event-triggered flow',
      async (g: Awaited<ReturnType<typeof flowsGuild>>['guild']) =>
        (await saveFlow(db(), g, manualFlow([{ id: 'a', type: 'set', values: {} }], { trigger: { id: 'start', type: 'trigger', trigger: { kind: 'event', event: 'members.left' } } }))).flow.id,
      409,
      'FLOW_NOT_RUNNABLE',
    ],
  ] as const)('%s: %i %s, nothing recorded', async (_name, flowOf, status, code) => {
    const { guild, key } = await flowsGuild(db());
    const flowId = await flowOf(guild);
    const before = await countWrites(db(), guild.id);
    const res = await runFlow(guild.id, key, flowId, { input: 1 });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    expect(await flowRunRows(guild.id)).toEqual([]);
    expect(await quotaUsed(guild.id)).toBe(0);
    expect(await countWrites(db(), guild.id)).toEqual(before);
  });

  it("another server's flow is unknown here: 404 FLOW_NOT_FOUND", async () => {
    const mine = await flowsGuild(db());
    const theirs = await flowsGuild(db());
    const { flow } = await saveFlow(db(), theirs.guild, threeNodeFlow());
    expect((await runFlow(mine.guild.id, mine.key, flow.id, {})).body.error).toBe('FLOW_NOT_FOUND');
  });

  it.each([
    [{ timeoutSeconds: 0, wait: true }, 'timeoutSeconds'],
    [{ timeoutSeconds: 121, wait: true }, 'timeoutSeconds'],
    [{ timeoutSeconds: 1.5 }, 'timeoutSeconds'],
    [{ wait: 'yes' }, 'wait'],
    [{ extra: 1 }, ''],
  ])('400 INVALID_REQUEST for %j', async (body, path) => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const res = await runFlow(guild.id, key, flow.id, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
    expect(res.body.issues[0]).toMatchObject({ location: 'body', path });
    expect(await flowRunRows(guild.id)).toEqual([]);
  });

  it('400 for a malformed flow id; 403 without flows:run; 409 FEATURE_DISABLED with Flows off', async () => {
    const { guild, key } = await flowsGuild(db());
    const bad = await runFlow(guild.id, key, 'abc', {});
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0]).toMatchObject({ location: 'path', path: 'workflowId' });
    const reader = await flowsGuild(db(), { scopes: ['flows:read'] });
    const { flow } = await saveFlow(db(), reader.guild, threeNodeFlow());
    expect((await runFlow(reader.guild.id, reader.key, flow.id, {})).body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'flows:run' });
    const off = await flowsGuild(db(), { features: FEATURES.filter((f) => f !== 'flows') });
    expect((await runFlow(off.guild.id, off.key, 1, {})).body.error).toBe('FEATURE_DISABLED');
  });
});

describe('GET /flows/runs/{executionId}', () => {
  it("404 FLOW_RUN_NOT_FOUND for an unknown run and for another server's run", async () => {
    const mine = await flowsGuild(db());
    const theirs = await flowsGuild(db());
    const { flow } = await saveFlow(db(), theirs.guild, threeNodeFlow());
    const run = await runFlow(theirs.guild.id, theirs.key, flow.id, {});
    for (const id of [run.body.executionId, 2_000_000_000]) {
      const res = await app.http('GET', `/guilds/${mine.guild.id}/flows/runs/${id}`, { headers: bearer(mine.key) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'FLOW_RUN_NOT_FOUND', message: expect.any(String) });
    }
  });

  it('a running run whose workflow was terminated reads cancelled with the reason; the record is left running', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const run = await runFlow(guild.id, key, flow.id, {});
    await eventually(() => findFlowRun(db(), guild.id, run.body.executionId), (r) => r?.workflowStartedAt !== null);
    await gateway.client.workflow.getHandle(flowRunWorkflowId(guild.id, run.body.executionId)).terminate('stopped from the Temporal UI');
    const res = await app.http('GET', `/guilds/${guild.id}/flows/runs/${run.body.executionId}`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...run.body, status: 'cancelled', error: "the run's workflow was terminated" });
    expect(await findFlowRun(db(), guild.id, run.body.executionId)).toMatchObject({ status: 'running' });
  });
});
