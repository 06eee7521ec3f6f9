import { describe, expect, it } from 'vitest';
import { DEMO_GUILD_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../../process/demo/demoGuild.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer, createTestKey } from '../../harness/fixtures.js';

// The demo guild's giveaways, as the API shows them.
const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });

describe('demo giveaways', () => {
  it('a scheduled, an active one with entrants and an ended one with its draw; seeded once', async () => {
    await seedDemoGuild(db(), NOW);
    await seedDemoGuild(db(), NOW);
    const { key } = await createTestKey(db(), { id: DEMO_GUILD_ID, ownerId: DEMO_OWNER_ID, botUserId: '' }, { scopes: ['giveaways:read'] });
    const list = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/giveaways`, { headers: bearer(key) });
    expect(list.status).toBe(200);
    expect(list.body.items.map((g: { status: string }) => g.status)).toEqual(['active', 'scheduled', 'ended']);
    const [active, scheduled, ended] = list.body.items;
    expect(active).toMatchObject({ entrants: 12, messageUrl: expect.any(String) });
    expect(active.entries).toBeGreaterThan(12);
    expect(scheduled).toMatchObject({ entrants: 0, messageUrl: null });
    expect(ended).toMatchObject({ entrants: 20, winnersCount: 2, winnerIds: [expect.any(String), expect.any(String)] });
    const detail = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/giveaways/${ended.id}`, { headers: bearer(key) });
    expect(detail.body.draws).toEqual([expect.objectContaining({ drawNumber: 1, winnerIds: ended.winnerIds, entrants: 20 })]);
    expect(detail.body.queuedActions.every((a: { status: string }) => a.status === 'done')).toBe(true);
  });
});
