import { describe, expect, it } from 'vitest';
import { DEMO_GUILD_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../../process/demo/demoGuild.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { bearer, createTestKey } from '../../harness/fixtures.js';

// The demo guild's flows, run as a customer would run them.
const { db, app } = useWorkflowTestBed();

describe('demo flows', () => {
  it('three flows, seeded once: the manual reward pays and posts; the webhook flow branches on its body', async () => {
    await seedDemoGuild(db());
    await seedDemoGuild(db());
    const { key } = await createTestKey(db(), { id: DEMO_GUILD_ID, ownerId: DEMO_OWNER_ID, botUserId: '' }, { scopes: ['flows:read', 'flows:run'] });
    const list = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/flows`, { headers: bearer(key) });
    expect(list.body.items.map((f: { name: string; triggerType: string; runnable: boolean }) => [f.name, f.triggerType, f.runnable])).toEqual([
      ['Pay a reward', 'manual', true],
      ['Deploy notice', 'webhook', true],
      ['Welcome', 'event', false],
    ]);
    const [reward, deploy] = list.body.items as Array<{ id: number }>;
    const member = '1100000000000001003';
    const paid = await app.http('POST', `/guilds/${DEMO_GUILD_ID}/flows/${reward!.id}/runs`, { headers: bearer(key), body: { input: { userId: member, amount: 75 }, wait: true } });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'success', output: { messageId: expect.any(String) } });
    const posted = await db().selectFrom('platform_messages').select('content').where('guild_id', '=', DEMO_GUILD_ID).where('content', 'like', '%earned 75 coins%').execute();
    expect(posted).toHaveLength(1);

    const run = (status: string) =>
      app.http('POST', `/guilds/${DEMO_GUILD_ID}/flows/${deploy!.id}/runs`, { headers: bearer(key), body: { input: { headers: {}, query: {}, body: { status, service: 'api' } }, wait: true } });
    expect((await run('success')).body).toMatchObject({ status: 'success' });
    expect((await run('crashed')).body).toMatchObject({ status: 'error', error: 'deploy failed' });
  });
});
