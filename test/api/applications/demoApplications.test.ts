import { describe, expect, it } from 'vitest';
import { DEMO_GUILD_ID, seedDemoGuild } from '../../../process/demo/demoGuild.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer, createTestKey } from '../../harness/fixtures.js';

// The demo guild's application forms and submissions, as the API shows them.
const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });

const snapshot = async () => ({
  forms: await db().selectFrom('application_forms').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('id').execute(),
  submissions: await db().selectFrom('application_submissions').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('number').execute(),
  votes: await db().selectFrom('application_votes').selectAll().where('guild_id', '=', DEMO_GUILD_ID).execute(),
});

describe('demo applications', () => {
  it('has two forms and submissions in every status, with votes and decisions; seeded once', async () => {
    await seedDemoGuild(db(), NOW);
    const first = await snapshot();
    await seedDemoGuild(db(), NOW);
    expect(await snapshot()).toEqual(first);

    const { key } = await createTestKey(db(), { id: DEMO_GUILD_ID, ownerId: '1100000000000000002', botUserId: '1100000000000000003' }, { scopes: ['applications:read'] });
    const forms = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/applications/forms`, { headers: bearer(key) });
    expect(forms.status).toBe(200);
    expect(forms.body.items.map((f: { title: string }) => f.title)).toEqual(['Staff application', 'Event host']);
    expect(forms.body.items.map((f: { submissions: unknown }) => f.submissions)).toEqual([
      { total: 6, open: 3 },
      { total: 2, open: 1 },
    ]);

    const list = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/applications/submissions?limit=100`, { headers: bearer(key) });
    const items = list.body.items as Array<{ number: number; status: string; votes: { up: number; down: number }; submittedAt: string; decidedBy: string | null }>;
    expect(new Set(items.map((s) => s.status))).toEqual(new Set(['pending', 'interview', 'hold', 'accepted', 'denied', 'withdrawn']));
    expect(items.some((s) => s.votes.up + s.votes.down > 0)).toBe(true);
    for (const s of items) expect(new Date(s.submittedAt).getTime()).toBeLessThanOrEqual(NOW.getTime());
    for (const s of items.filter((s) => s.status === 'accepted' || s.status === 'denied')) expect(s.decidedBy).not.toBeNull();

    const detail = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/applications/submissions/${items[0]!.number}`, { headers: bearer(key) });
    expect(detail.status).toBe(200);
    expect(detail.body.answers.length).toBeGreaterThan(0);
    expect(detail.body.applicant.roleIds).toEqual(['1100000000000000107']);
    const events = await db().selectFrom('events').select('type').where('guild_id', '=', DEMO_GUILD_ID).where('type', '=', 'applications.submitted').execute();
    expect(events).toHaveLength(8);
  });
});
