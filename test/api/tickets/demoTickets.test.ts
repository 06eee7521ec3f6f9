import { describe, expect, it } from 'vitest';
import { createKeyForGuild } from '../../harness/tickets.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { DEMO_GUILD_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../../process/demo/demoGuild.js';
import { bearer } from '../../harness/fixtures.js';

// The demo guild's tickets, as the API shows them.
const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });

describe('demo tickets', () => {
  it('has open, pending and closed tickets, closed ones with transcripts of a few hundred messages; seeded once', async () => {
    await seedDemoGuild(db(), NOW);
    await seedDemoGuild(db(), NOW);
    const key = await createKeyForGuild(db(), DEMO_GUILD_ID, DEMO_OWNER_ID);
    const list = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/tickets?limit=100`, { headers: bearer(key) });
    expect(list.status).toBe(200);
    const tickets = list.body.items as Array<{ ticketNo: number; status: string; hasTranscript: boolean; openedAt: string; lastMessageAt: string | null }>;
    expect(tickets.map((t) => t.ticketNo)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(new Set(tickets.map((t) => t.status))).toEqual(new Set(['open', 'pending', 'closed']));
    for (const t of tickets) expect(new Date(t.lastMessageAt ?? t.openedAt).getTime()).toBeLessThanOrEqual(NOW.getTime());
    const closed = tickets.filter((t) => t.status === 'closed');
    expect(closed.every((t) => t.hasTranscript)).toBe(true);
    const sizes: number[] = [];
    for (const t of closed) {
      const res = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/tickets/${t.ticketNo}/transcript?limit=500`, { headers: bearer(key) });
      expect(res.status).toBe(200);
      expect(res.body.messages).toHaveLength(res.body.totalMessages);
      sizes.push(res.body.totalMessages);
    }
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(300);
    const pending = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/tickets/${tickets.find((t) => t.status === 'pending')!.ticketNo}`, { headers: bearer(key) });
    expect(pending.body.closeRequest).toMatchObject({ viaApi: false });
  });
});
