import { describe, expect, it } from 'vitest';
import type { FlowDefinitionInput } from '../../../src/flows/definition.js';
import { createFlow } from '../../../src/flows/manageFlows.js';
import { eventually } from '../../harness/eventually.js';
import { createHttpClient } from '../../harness/httpClient.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { managedGuild } from '../consoleClient.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

const { db, app } = useWorkflowTestBed();
const browser = useBrowser();

const deployFlow: FlowDefinitionInput = {
  name: 'Deploy notice',
  timeoutSeconds: 30,
  nodes: [
    { id: 'start', type: 'trigger', trigger: { kind: 'webhook' }, next: 'check' },
    { id: 'check', type: 'if', condition: '=trigger.body.status = "ok"', next: { true: 'done', false: 'fail' } },
    { id: 'done', type: 'set', values: { said: 'shipped' } },
    { id: 'fail', type: 'stop', status: 'error', message: '="deploy failed: " & trigger.body.status' },
  ],
};

describe('flows in a real browser', { timeout: 120_000 }, () => {
  it('walks the list, the new flow page, a flow with its runs, a run node by node, the editor with a refused definition, a new webhook flow, and the disable confirmation', async () => {
    const guild = await managedGuild(db(), 'Flows Guild');
    const { flow, webhookToken } = await db()
      .transaction()
      .execute((trx) => createFlow(trx, { guildId: guild.id, definition: deployFlow, enabled: true, actor: { type: 'system' }, at: new Date() }));
    const res = await createHttpClient(app.baseUrl)('POST', `/hooks/flows/${webhookToken}`, { body: { status: 'broken' } });
    const executionId = (res.body as { executionId: number }).executionId;
    await eventually(
      () => db().selectFrom('flow_runs').select('status').where('execution_id', '=', executionId).executeTakeFirstOrThrow(),
      (r) => r.status !== 'running',
    );
    const s = `${app.baseUrl}/console/servers/${guild.id}/flows`;

    for (const width of [1100, 390]) {
      const suffix = width === 390 ? '-phone' : '';
      const { page } = await browser.open();
      await page.setViewportSize({ width, height: 844 });
      await signInLocally(page, app.baseUrl, guild.managerId);
      await page.goto(s);
      for (const [name, next] of [
        ['flows', () => page.getByRole('link', { name: 'New flow' }).click()],
        ['flow-new', () => page.goto(s).then(() => page.getByRole('link', { name: 'Deploy notice' }).click())],
        ['flow', () => page.getByRole('link', { name: `#${executionId}` }).click()],
        ['flow-run', () => page.goto(`${s}/${flow.id}/definition`)],
        ['flow-definition', () => page.goto(`${s}/${flow.id}/disable`)],
        ['flow-disable', async () => undefined],
      ] as const) {
        await expectFitsWidth(page, name);
        await expectAccessible(page);
        await screenshot(page, `${name}${suffix}`);
        await next();
      }
    }

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.goto(`${s}/${flow.id}/definition`);
    const broken = JSON.stringify({ ...deployFlow, nodes: [deployFlow.nodes[0], { ...deployFlow.nodes[1], next: { true: 'done', false: 'nowhere' } }, deployFlow.nodes[2], deployFlow.nodes[3]] }, null, 2);
    await page.getByLabel('Definition (JSON)').fill(broken);
    await page.getByRole('button', { name: 'Save a new version' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_DEFINITION');
    expect(await page.getByLabel('Definition (JSON)').inputValue()).toBe(broken);
    expect(await page.locator('li[data-node="check"] .field-error').innerText()).toContain('names unknown node "nowhere"');
    await expectAccessible(page);
    await screenshot(page, 'flow-definition-error');

    // A new webhook flow, enabled at once: its page shows the URL once.
    await page.goto(s);
    await page.getByRole('link', { name: 'New flow' }).click();
    await page.getByLabel('Definition (JSON)').fill(JSON.stringify({ ...deployFlow, name: 'Release notice' }, null, 2));
    await page.getByLabel(/Enable it at once/).check();
    await page.getByRole('button', { name: 'Create the flow' }).click();
    await expect.poll(() => page.locator('[data-webhook-path]').count()).toBe(1);
    expect(await db().selectFrom('flows').select(['enabled']).where('guild_id', '=', guild.id).where('name', '=', 'Release notice').executeTakeFirst()).toEqual({ enabled: true });
    await expectAccessible(page);
    await screenshot(page, 'flow-created');

    await page.goto(`${s}/${flow.id}/disable`);
    await page.getByRole('button', { name: 'Disable the flow' }).click();
    await page.waitForURL(`${s}/${flow.id}`);
    await expect.poll(() => page.locator('dd[data-state="disabled"]').count()).toBe(1);
    expect((await db().selectFrom('flows').select('enabled').where('id', '=', flow.id).executeTakeFirstOrThrow()).enabled).toBe(false);
    await expectAccessible(page);
    await screenshot(page, 'flow-disabled');
  });
});
