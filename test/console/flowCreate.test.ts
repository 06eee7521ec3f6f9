import { describe, expect, it } from 'vitest';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { consoleUserAudit } from './consoleClient.js';
import { badDefinitions, deployFlow, expectRefused, flowsBed } from './flowsBed.js';

// Creating a flow from the dashboard (flowsBed.ts); the flows' list, runs and edits are in flows.test.ts.
// A created webhook flow runs through the real flow workflow on a real worker, started by its URL.
const { db, app } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const { signedIn, runByWebhook, flowRow, consoleAudit, flowCount } = flowsBed(db, app);

/** The text of a page's definition textarea, unescaped. */
const textareaOf = (html: string) =>
  /<textarea id="flow-definition"[^>]*>([^<]*)<\/textarea>/.exec(html)![1]!.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

describe('the flows pages', () => {
  it("create a flow from the prefilled definition through the CLI's use case, disabled, audited with the console user; the same form sent again creates nothing more", async () => {
    const { guild, client, s } = await signedIn();
    const list = await client.get(s);
    expect(list.text).toContain(`<a href="${s}/new">New flow</a>`);
    const page = await client.get(`${s}/new`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<input type="checkbox" id="flow-enabled" name="flow-enabled" value="on"\s*\/?>/);
    expect(page.text).toMatch(/data-node="start" data-node-errors="0"/);
    const prefilled = textareaOf(page.text);
    const res = await client.post(`${s}/new`, { definition: prefilled });
    const [made] = await db().selectFrom('flows').select(['id', 'name', 'enabled', 'version', 'trigger_type']).where('guild_id', '=', guild.id).execute();
    expect(made).toMatchObject({ name: 'New flow', enabled: false, version: 1, trigger_type: 'manual' });
    expect([res.status, res.headers.location]).toEqual([303, `${s}/${made!.id}`]);
    expect((await client.get(res.headers.location!)).text).not.toContain('data-webhook-path');
    const again = await client.post(`${s}/new`, { definition: prefilled });
    expect([again.status, again.headers.location]).toEqual([303, `${s}/${made!.id}`]);
    expect(await flowCount(guild.id)).toBe(1);
    expect(await consoleUserAudit(db(), guild.id)).toEqual([
      { actor_type: 'console_user', actor_id: guild.managerId, action: 'flows.create', target_id: String(made!.id), data: { name: 'New flow', triggerType: 'manual', enabled: false } },
    ]);
  });

  it('create an enabled webhook flow: its URL shown once on its page, and calling it runs the flow', async () => {
    const { guild, client, s } = await signedIn();
    await client.get(`${s}/new`);
    const res = await client.post(`${s}/new`, { definition: JSON.stringify(deployFlow()), 'flow-enabled': 'on' });
    expect(res.status).toBe(303);
    const id = Number(res.headers.location!.split('/').pop());
    expect(await flowRow(id)).toMatchObject({ name: 'Deploy notice', enabled: true, version: 1 });
    const shown = await client.get(res.headers.location!);
    const path = /data-webhook-path="true">[^<]*<code>&lt;api base>(\/hooks\/flows\/fwh_[A-Za-z0-9_-]+)<\/code>/.exec(shown.text)?.[1];
    expect(path).toBeDefined();
    expect((await client.get(res.headers.location!)).text).not.toContain('data-webhook-path');
    const run = await runByWebhook(path!.slice('/hooks/flows/'.length), { status: 'ok' });
    expect(await db().selectFrom('flow_runs').select(['flow_id', 'output']).where('execution_id', '=', run).executeTakeFirst()).toEqual({ flow_id: id, output: { said: 'shipped' } });
    expect(await consoleAudit(guild.id)).toEqual([{ actor_type: 'console_user', actor_id: guild.managerId, action: 'flows.create', target_id: String(id) }]);
  });

  it.each(badDefinitions)('refuse a new flow with %s 422 INVALID_DEFINITION on the form, enabled kept, creating nothing', async (_name, text, byNode, onFlow) => {
    const { guild, client, s } = await signedIn();
    await client.get(`${s}/new`);
    const res = await client.post(`${s}/new`, { definition: text, 'flow-enabled': 'on' });
    expectRefused(res, text, byNode, onFlow);
    expect(res.text).toMatch(/id="flow-enabled" name="flow-enabled" value="on" checked/);
    expect(await flowCount(guild.id)).toBe(0);
    expect(await consoleAudit(guild.id)).toEqual([]);
  });
});
