import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { applicationRequests, createTestForm } from '../../harness/applications.js';
import { bearer, createTestKey } from '../../harness/fixtures.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });
const { setup, seed } = applicationRequests(db, app, NOW);

describe('GET /applications/forms', () => {
  it('lists the forms in console order with their questions and submission counts (total, open)', async () => {
    const { guild, key, form } = await setup();
    const second = await createTestForm(db(), guild.id, {
      title: 'Event host',
      description: 'Host community events.',
      open: false,
      opensAt: new Date('2026-12-01T00:00:00.000Z'),
      closesAt: new Date('2026-12-31T00:00:00.000Z'),
      questions: [{ id: 'idea', type: 'short', label: 'Your event idea', required: false }],
    });
    // Console order is the position, not the id.
    await db().updateTable('application_forms').set({ position: 0 }).where('id', '=', second.id).execute();
    for (const status of ['pending', 'interview', 'hold', 'accepted', 'denied', 'withdrawn'] as const) await seed(guild, form, { status });
    await seed(guild, second, { status: 'pending' });

    const res = await app.http('GET', `/guilds/${guild.id}/applications/forms`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          id: second.id,
          title: 'Event host',
          description: 'Host community events.',
          open: false,
          opensAt: '2026-12-01T00:00:00.000Z',
          closesAt: '2026-12-31T00:00:00.000Z',
          questions: [{ id: 'idea', type: 'short', label: 'Your event idea', required: false }],
          submissions: { total: 1, open: 1 },
        },
        {
          id: form.id,
          title: 'Staff application',
          description: 'Apply to join the staff team.',
          open: true,
          opensAt: null,
          closesAt: null,
          questions: [
            { id: 'age', type: 'number', label: 'How old are you?', required: true },
            { id: 'why', type: 'paragraph', label: 'Why do you want to join the staff?', required: true },
          ],
          submissions: { total: 6, open: 3 },
        },
      ],
    });
  });

  it('answers an empty list for a server without forms, and never shows another server\'s forms', async () => {
    const { guild } = await setup();
    const other = await setup();
    const res = await app.http('GET', `/guilds/${other.guild.id}/applications/forms`, { headers: bearer(other.key) });
    expect(res.body.items.map((f: { id: number }) => f.id)).toEqual([other.form.id]);
    await db().deleteFrom('application_forms').where('guild_id', '=', guild.id).execute();
    const { key } = await createTestKey(db(), guild, { scopes: ['applications:read'] });
    expect((await app.http('GET', `/guilds/${guild.id}/applications/forms`, { headers: bearer(key) })).body).toEqual({ items: [] });
  });

  it('needs applications:read (403 INSUFFICIENT_SCOPE) and the Applications feature (409 FEATURE_DISABLED)', async () => {
    const { guild } = await setup({ scopes: ['applications:write'] });
    const { key: writeOnly } = await createTestKey(db(), guild, { scopes: ['applications:write'] });
    const res = await app.http('GET', `/guilds/${guild.id}/applications/forms`, { headers: bearer(writeOnly) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'applications:read' });

    const off = await setup({ features: ['bank'] });
    const disabled = await app.http('GET', `/guilds/${off.guild.id}/applications/forms`, { headers: bearer(off.key) });
    expect(disabled.status).toBe(409);
    expect(disabled.body).toEqual({ error: 'FEATURE_DISABLED', message: expect.any(String) });
  });
});
