import { describe, expect, it } from 'vitest';
import { finishFlowRun, insertFlowRun } from '../../db/flows/runs.js';
import { createHttpClient } from '../harness/httpClient.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { errorCodeOf, managedGuild } from './consoleClient.js';
import { badDefinitions, deployFlow, expectRefused, flowsBed } from './flowsBed.js';
import { featureOff } from './ticketBed.js';

// The flows' list, runs, edits, disabling and deleting (flowsBed.ts); creating a flow is in flowCreate.test.ts.
// Runs go through the real flow workflow on a real worker, started by the flow's webhook URL.
const { db, app } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const { signedIn, saveFlow, runByWebhook, flowRow, consoleAudit, flowCount } = flowsBed(db, app);
const ids = (html: string, attr: string) => [...html.matchAll(new RegExp(`data-${attr}="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('the flows pages', () => {
  it('list the flows with trigger and state, 25 a page, and say what to do when there is none', async () => {
    const { guild, client, s } = await signedIn();
    expect((await client.get(s)).text).toContain('data-empty="flows"');
    await saveFlow(guild.id, deployFlow());
    await saveFlow(guild.id, { ...deployFlow(), name: 'Welcome', nodes: [{ id: 'start', type: 'trigger', trigger: { kind: 'event', event: 'members.joined' }, next: 'hi' }, { id: 'hi', type: 'set', values: {} }] }, false);
    for (let i = 0; i < 24; i += 1) await saveFlow(guild.id, { ...deployFlow(), name: `Flow ${i}` });
    const page = await client.get(s);
    expect(page.status).toBe(200);
    expect(ids(page.text, 'flow')).toHaveLength(25);
    expect(page.text).toMatch(/>Deploy notice<\/a><\/td><td>webhook<\/td><td data-state="enabled">/);
    expect(page.text).toMatch(/>Welcome<\/a><\/td><td>event members.joined<\/td><td data-state="disabled">/);
    const more = /href="([^"]+)" rel="next">More flows/.exec(page.text)![1]!;
    expect(ids((await client.get(more)).text, 'flow')).toHaveLength(1);
    const bad = await client.get(`${s}?after=x`);
    expect([bad.status, errorCodeOf(bad)]).toEqual([400, 'INVALID_INPUT']);
  });

  it('show the FeatureOff page while flows are off, and refuse their actions 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, client, s } = await signedIn();
    const { flow } = await saveFlow(guild.id, deployFlow());
    await featureOff(db(), guild.id, 'flows');
    const page = await client.get(s);
    expect([page.status, page.text.includes('data-feature-off="flows"')]).toEqual([200, true]);
    const res = await client.post(`${s}/${flow.id}/disable`, {}, { form: 'x' });
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'FEATURE_DISABLED']);
    const page2 = await client.get(`${s}/new`);
    expect([page2.status, errorCodeOf(page2)]).toEqual([409, 'FEATURE_DISABLED']);
    const create = await client.post(`${s}/new`, { definition: JSON.stringify(deployFlow()) }, { form: 'x' });
    expect([create.status, errorCodeOf(create)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await flowRow(flow.id)).toMatchObject({ enabled: true, version: 1 });
    expect(await flowCount(guild.id)).toBe(1);
  });

  it("show a flow's runs with their status, and a run node by node, from the real workflow", async () => {
    const { guild, client, s } = await signedIn();
    const { flow, webhookToken } = await saveFlow(guild.id, deployFlow());
    const ok = await runByWebhook(webhookToken!, { status: 'ok' });
    const failed = await runByWebhook(webhookToken!, { status: 'broken' });
    const page = await client.get(`${s}/${flow.id}`);
    expect(page.status).toBe(200);
    expect(ids(page.text, 'run')).toEqual([String(failed), String(ok)]);
    expect(page.text).toContain(`<td data-status="success">success</td>`);
    expect(page.text).toContain('deploy failed: broken');

    const good = await client.get(`${s}/runs/${ok}`);
    expect(good.status).toBe(200);
    expect(good.text).toContain('<dd data-status="success">success</dd>');
    const outcomes = (html: string) => Object.fromEntries([...html.matchAll(/data-node="([^"]+)">.*?data-outcome="([^"]+)"/gs)].map((m) => [m[1], m[2]]));
    expect(outcomes(good.text)).toEqual({ start: 'done', check: 'done', done: 'done', fail: 'not reached' });
    expect(good.text).toContain(`<a href="${s}/${flow.id}">Deploy notice</a>, version 1, started by webhook`);
    expect(good.text).toContain('&quot;said&quot;: &quot;shipped&quot;');
    expect(good.text).toContain('&quot;result&quot;: true');
    const bad = await client.get(`${s}/runs/${failed}`);
    expect(outcomes(bad.text)).toEqual({ start: 'done', check: 'done', done: 'not reached', fail: 'failed' });
    expect(bad.text).toContain('<dd data-run-error="true">deploy failed: broken</dd>');
  });

  it("page a flow's runs newest first, 25 a page", async () => {
    const { guild, client, s } = await signedIn();
    const { flow } = await saveFlow(guild.id, deployFlow());
    const made: number[] = [];
    for (let i = 0; i < 26; i += 1) {
      const run = await insertFlowRun(db(), { guildId: guild.id, flowId: flow.id, flowVersion: 1, source: 'api', nodes: [], timeoutSeconds: 30, input: null, apiKeyId: null, eventId: null, startedAt: new Date() });
      await finishFlowRun(db(), run!.executionId, { status: 'success', output: null, error: null, finishedAt: new Date(), durationMs: 5 });
      made.push(run!.executionId);
    }
    const page = await client.get(`${s}/${flow.id}`);
    expect(ids(page.text, 'run')).toEqual(made.slice(1).reverse().map(String));
    const older = await client.get(`${s}/${flow.id}?before=${made[1]}`);
    expect(ids(older.text, 'run')).toEqual([String(made[0])]);
    expect(older.text).not.toContain('rel="next"');
    // An old run's record without node outcomes says so.
    expect((await client.get(`${s}/runs/${made[0]}`)).text).toContain('ended before the nodes');
  });

  it('disable after a confirmation and enable again through the use case the CLI calls, audited with the console user', async () => {
    const { guild, client, s } = await signedIn();
    const { flow, webhookToken } = await saveFlow(guild.id, deployFlow());
    const confirm = await client.get(`${s}/${flow.id}/disable`);
    expect(confirm.text).toContain('Disable the flow</button>');
    expect(await flowRow(flow.id)).toMatchObject({ enabled: true });
    const off = await client.post(`${s}/${flow.id}/disable`);
    expect([off.status, off.headers.location]).toEqual([303, `${s}/${flow.id}`]);
    expect(await flowRow(flow.id)).toMatchObject({ enabled: false });
    // Its trigger no longer starts runs.
    const call = await createHttpClient(app.baseUrl)('POST', `/hooks/flows/${webhookToken}`, { body: { status: 'ok' } });
    expect([call.status, (call.body as { error: string }).error]).toEqual([409, 'FLOW_DISABLED']);
    await client.get(`${s}/${flow.id}`);
    const on = await client.post(`${s}/${flow.id}/enable`);
    expect(on.status).toBe(303);
    expect(await flowRow(flow.id)).toMatchObject({ enabled: true });
    expect(await consoleAudit(guild.id)).toEqual([
      { actor_type: 'console_user', actor_id: guild.managerId, action: 'flows.disable', target_id: String(flow.id) },
      { actor_type: 'console_user', actor_id: guild.managerId, action: 'flows.enable', target_id: String(flow.id) },
    ]);
  });

  it('delete after a confirmation, audited; its runs stay readable', async () => {
    const { guild, client, s } = await signedIn();
    const { flow, webhookToken } = await saveFlow(guild.id, deployFlow());
    const run = await runByWebhook(webhookToken!, { status: 'ok' });
    expect((await client.get(`${s}/${flow.id}/delete`)).text).toContain('Delete the flow</button>');
    const res = await client.post(`${s}/${flow.id}/delete`);
    expect([res.status, res.headers.location]).toEqual([303, s]);
    expect(await flowRow(flow.id)).toBeUndefined();
    expect(await consoleAudit(guild.id)).toMatchObject([{ actor_id: guild.managerId, action: 'flows.delete' }]);
    expect((await client.get(`${s}/runs/${run}`)).status).toBe(200);
    const gone = await client.get(`${s}/${flow.id}`);
    expect([gone.status, errorCodeOf(gone)]).toEqual([404, 'FLOW_NOT_FOUND']);
  });

  it('save an edited definition as a new version that the next run uses, audited with the console user', async () => {
    const { guild, client, s } = await signedIn();
    const { flow, webhookToken } = await saveFlow(guild.id, deployFlow());
    const form = await client.get(`${s}/${flow.id}/definition`);
    expect(form.text).toContain('&quot;said&quot;: &quot;shipped&quot;');
    const res = await client.post(`${s}/${flow.id}/definition`, { definition: JSON.stringify(deployFlow('released')) });
    expect([res.status, res.headers.location]).toEqual([303, `${s}/${flow.id}`]);
    expect(await flowRow(flow.id)).toMatchObject({ version: 2 });
    expect(await consoleAudit(guild.id)).toMatchObject([{ actor_id: guild.managerId, action: 'flows.update', target_id: String(flow.id) }]);
    const run = await runByWebhook(webhookToken!, { status: 'ok' });
    expect(await db().selectFrom('flow_runs').select(['flow_version', 'output']).where('execution_id', '=', run).executeTakeFirst()).toEqual({ flow_version: 2, output: { said: 'released' } });
  });

  it('show a manual flow that becomes a webhook flow its new URL once', async () => {
    const { guild, client, s } = await signedIn();
    const manual = { ...deployFlow(), nodes: [{ id: 'start', type: 'trigger' as const, trigger: { kind: 'manual' as const }, next: 'hi' }, { id: 'hi', type: 'set' as const, values: {} }] };
    const { flow } = await saveFlow(guild.id, manual);
    await client.get(`${s}/${flow.id}/definition`);
    const res = await client.post(`${s}/${flow.id}/definition`, { definition: JSON.stringify(deployFlow()) });
    const shown = await client.get(res.headers.location!);
    const path = /data-webhook-path="true">[^<]*<code>&lt;api base>(\/hooks\/flows\/fwh_[A-Za-z0-9_-]+)<\/code>/.exec(shown.text)?.[1];
    expect(path).toBeDefined();
    expect((await client.get(res.headers.location!)).text).not.toContain('data-webhook-path');
    expect((await createHttpClient(app.baseUrl)('POST', path!, { body: { status: 'ok' } })).status).toBe(202);
  });

  it.each(badDefinitions)('refuse %s 422 INVALID_DEFINITION, each issue beside its node, the text kept, changing nothing', async (_name, text, byNode, onFlow) => {
    const { guild, client, s } = await signedIn();
    const { flow } = await saveFlow(guild.id, deployFlow());
    const before = await flowRow(flow.id);
    await client.get(`${s}/${flow.id}/definition`);
    const res = await client.post(`${s}/${flow.id}/definition`, { definition: text });
    expectRefused(res, text, byNode, onFlow);
    expect(await flowRow(flow.id)).toEqual(before);
    expect(await consoleAudit(guild.id)).toEqual([]);
  });

  it("answer 404 for another server's flow or run, and refuse a manager who lost the permission 403, changing nothing", async () => {
    const { guild, client, s } = await signedIn();
    const other = await managedGuild(db(), 'Other');
    const { flow: theirs, webhookToken } = await saveFlow(other.id, deployFlow());
    const run = await runByWebhook(webhookToken!, { status: 'ok' });
    for (const path of [`${s}/${theirs.id}`, `${s}/${theirs.id}/definition`]) {
      const res = await client.get(path);
      expect([res.status, errorCodeOf(res)]).toEqual([404, 'FLOW_NOT_FOUND']);
    }
    const res = await client.get(`${s}/runs/${run}`);
    expect([res.status, errorCodeOf(res)]).toEqual([404, 'FLOW_RUN_NOT_FOUND']);
    const denied = await client.post(`${s}/${theirs.id}/disable`, {}, { form: 'x' });
    expect(denied.status).toBe(404);
    const { flow } = await saveFlow(guild.id, deployFlow());
    await client.get(`${s}/${flow.id}/disable`);
    await db().updateTable('platform_members').set({ role_ids: [] }).where('guild_id', '=', guild.id).where('user_id', '=', guild.managerId).execute();
    const stale = await client.post(`${s}/${flow.id}/disable`);
    expect([stale.status, errorCodeOf(stale)]).toEqual([403, 'NOT_A_SERVER_MANAGER']);
    expect(await flowRow(theirs.id)).toMatchObject({ enabled: true });
    expect(await flowRow(flow.id)).toMatchObject({ enabled: true });
  });
});
