import { describe, expect, it } from 'vitest';
import { findForm } from '../../db/applications/forms.js';
import { findApplicationPanel } from '../../db/applications/panels.js';
import { createTestForm } from '../harness/applications.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { snowflake } from '../harness/fixtures.js';
import { consoleClient, errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { featureOff, ticketGuild } from './ticketBed.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

async function signedIn() {
  const guild = await ticketGuild(db());
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  const base = `/console/servers/${guild.id}/applications`;
  return { guild, client, forms: `${base}/forms`, panels: `${base}/panels` };
}

const messagesOf = (guildId: string) => db().selectFrom('platform_messages').select(['id', 'channel_id', 'content', 'buttons', 'edited_at']).where('guild_id', '=', guildId).orderBy('id').execute();
const auditOf = (guildId: string, action: string) =>
  db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'target_id', 'data']).where('guild_id', '=', guildId).where('action', '=', action).orderBy('id').execute();
const state = async (guildId: string) => ({
  forms: await db().selectFrom('application_forms').selectAll().where('guild_id', '=', guildId).orderBy('id').execute(),
  panels: await db().selectFrom('application_panels').selectAll().where('guild_id', '=', guildId).execute(),
  messages: await messagesOf(guildId),
  audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
});
const dataError = (html: string) => /data-error="([A-Z_]+)"/.exec(html)?.[1];
const FORM = {
  'form-title': 'Moderator',
  'form-description': 'Help us keep the peace.',
  'form-open': 'on',
  'question-0-label': 'Why you?',
  'question-0-type': 'paragraph',
  'question-0-required': 'on',
};

describe('application forms and panels in the dashboard', () => {
  it("creates a form, edits its questions, roles and review channel through the forms' use cases, each audited with the console user", async () => {
    const { guild, client, forms } = await signedIn();
    expect((await client.get(forms)).text).toContain('data-empty="forms"');
    const blank = await client.get(`${forms}/new`);
    expect(blank.text).toContain('>#general</option>');
    expect(blank.text).toContain('@Staff');

    const created = await client.post(forms, FORM);
    const [row] = (await state(guild.id)).forms;
    expect([created.status, created.headers.location]).toEqual([303, `${forms}/${row!.id}`]);
    expect(await findForm(db(), guild.id, row!.id)).toMatchObject({ title: 'Moderator', open: true, questions: [{ id: 'q1', type: 'paragraph', label: 'Why you?', required: true }], reviewChannelId: null });
    expect(await auditOf(guild.id, 'applications.formCreate')).toEqual([{ actor_type: 'console_user', actor_id: guild.managerId, target_id: String(row!.id), data: { title: 'Moderator', questions: 1 } }]);
    expect((await client.get(forms)).text).toContain(`data-form="${row!.id}"`);

    const page = await client.get(`${forms}/${row!.id}`);
    expect(page.text).toContain('value="Why you?"');
    const edited = await client.post(`${forms}/${row!.id}`, {
      ...FORM,
      'question-0-id': 'q1',
      'question-1-label': 'Your age',
      'question-1-type': 'number',
      'form-accept-roles': guild.staffRole,
      'form-review-channel': guild.news,
    });
    expect([edited.status, edited.headers.location]).toEqual([303, forms]);
    expect(await findForm(db(), guild.id, row!.id)).toMatchObject({
      questions: [
        { id: 'q1', type: 'paragraph', label: 'Why you?', required: true },
        { id: 'q2', type: 'number', label: 'Your age', required: false },
      ],
      acceptRoleIds: [guild.staffRole],
      removeRoleIds: [],
      reviewChannelId: guild.news,
    });
    const [change] = await auditOf(guild.id, 'applications.formChange');
    expect(change).toMatchObject({ actor_type: 'console_user', actor_id: guild.managerId, data: { before: { acceptRoleIds: [], reviewChannelId: null }, after: { acceptRoleIds: [guild.staffRole], reviewChannelId: guild.news } } });
    expect(Object.keys((change!.data as { after: object }).after).sort()).toEqual(['acceptRoleIds', 'questions', 'reviewChannelId']);

    // Saved again unchanged (a fresh form): no audit row.
    await client.get(`${forms}/${row!.id}`);
    const again = { ...FORM, 'question-0-id': 'q1', 'question-1-id': 'q2', 'question-1-label': 'Your age', 'question-1-type': 'number', 'form-accept-roles': guild.staffRole, 'form-review-channel': guild.news };
    expect((await client.post(`${forms}/${row!.id}`, again)).status).toBe(303);
    expect(await auditOf(guild.id, 'applications.formChange')).toHaveLength(1);
  });

  it.each([
    ['no title', { 'form-title': ' ' }, 'form-title', 'Give a title of 1 to 80 characters.'],
    ['no question', { 'question-0-label': '' }, 'form-questions', 'Give the form at least one question.'],
    ['a question of 46 characters', { 'question-0-label': 'x'.repeat(46) }, 'question-0-label', "Question 1 has 46 characters; Discord shows at most 45."],
    ['an unknown answer type', { 'question-0-type': 'essay' }, 'question-0-type', 'Pick the answer of question 1.'],
    ['a role of no server', { 'form-accept-roles': snowflake() }, 'form-accept-roles', 'Pick roles of this server.'],
    ['a voice review channel', { 'form-review-channel': 'voice' }, 'form-review-channel', 'Pick a text channel of this server, or none.'],
  ])('keeps the form editor with %s (400 INVALID_INPUT, the field named) and changes nothing', async (_, change, field, message) => {
    const { guild, client, forms } = await signedIn();
    const form = await createTestForm(db(), guild.id);
    await client.get(`${forms}/${form.id}`);
    const before = await state(guild.id);
    const named = Object.fromEntries(Object.entries(change).map(([k, v]) => [k, v === 'voice' ? guild.voice : v]));
    const res = await client.post(`${forms}/${form.id}`, { ...FORM, ...named });
    expect([res.status, dataError(res.text)]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    expect(res.text).toContain('<title>Error: Form: Staff application');
    expect(await state(guild.id)).toEqual(before);
  });

  it('posts an application panel with an apply button per form, then updates the same message in place, audited with the console user', async () => {
    const { guild, client, forms, panels } = await signedIn();
    const staff = await createTestForm(db(), guild.id);
    const host = await createTestForm(db(), guild.id, { title: 'Event host' });
    expect((await client.get(panels)).text).toContain('data-empty="application-panels"');
    expect((await client.get(`${panels}/new`)).text).toContain('Event host');

    const posted = await client.post(panels, { 'app-panel-channel': guild.general, 'app-panel-text': 'Join the team.' });
    expect([posted.status, posted.headers.location]).toEqual([303, panels]);
    const [message] = await messagesOf(guild.id);
    expect(message).toMatchObject({
      channel_id: guild.general,
      content: 'Join the team.',
      buttons: [
        { id: `application:apply:${staff.id}`, label: 'Staff application' },
        { id: `application:apply:${host.id}`, label: 'Event host' },
      ],
    });
    expect(await findApplicationPanel(db(), guild.id, 1)).toMatchObject({ formIds: null, message: { messageId: String(message!.id) } });
    const list = await client.get(panels);
    expect(list.text).toContain('data-panel="1"');
    expect(list.text).toContain('<td>#general</td>');

    await client.get(`${panels}/1`);
    const updated = await client.post(`${panels}/1`, { 'app-panel-channel': guild.general, 'app-panel-text': 'Hosts wanted.', 'app-panel-forms': String(host.id) });
    expect(updated.status).toBe(303);
    expect(await messagesOf(guild.id)).toEqual([
      expect.objectContaining({ id: message!.id, content: 'Hosts wanted.', buttons: [{ id: `application:apply:${host.id}`, label: 'Event host' }], edited_at: expect.any(Date) }),
    ]);
    expect(await auditOf(guild.id, 'applications.panel')).toEqual([
      expect.objectContaining({ actor_type: 'console_user', actor_id: guild.managerId, target_id: '1', data: expect.objectContaining({ outcome: 'posted' }) }),
      expect.objectContaining({ actor_type: 'console_user', actor_id: guild.managerId, data: expect.objectContaining({ outcome: 'edited' }) }),
    ]);
    expect((await client.get(forms)).text).toContain(`data-form="${host.id}"`);
  });

  it.each([
    ['no channel', { 'app-panel-channel': '' }, 400, 'INVALID_INPUT', 'app-panel-channel', 'Pick a text channel of this server.'],
    ['an empty text', { 'app-panel-text': ' ' }, 400, 'INVALID_INPUT', 'app-panel-text', 'Give a text of 1 to 2,000 characters.'],
    ['a form of no server', { 'app-panel-forms': '999999' }, 400, 'INVALID_INPUT', 'app-panel-forms', 'Pick forms of this server.'],
  ])('keeps the panel form with %s (the exact status, the field named) and posts nothing', async (_, change, status, code, field, message) => {
    const { guild, client, panels } = await signedIn();
    await createTestForm(db(), guild.id);
    await client.get(`${panels}/new`);
    const before = await state(guild.id);
    const res = await client.post(panels, { 'app-panel-channel': guild.general, 'app-panel-text': 'Apply', ...change });
    expect([res.status, dataError(res.text)]).toEqual([status, code]);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    expect(await state(guild.id)).toEqual(before);
  });

  it('refuses a panel while the server has no form, 422 INVALID_PANEL on the forms, posting nothing', async () => {
    const { guild, client, panels } = await signedIn();
    await client.get(`${panels}/new`);
    const before = await state(guild.id);
    const res = await client.post(panels, { 'app-panel-channel': guild.general, 'app-panel-text': 'Apply' });
    expect([res.status, dataError(res.text)]).toEqual([422, 'INVALID_PANEL']);
    expect(fieldErrorOf(res.text, 'app-panel-forms')).toContain('has no application form to show');
    expect(await state(guild.id)).toEqual(before);
  });

  it("answers 404 for another server's form and a panel never posted, and says the feature is off (actions 409), changing nothing", async () => {
    const { guild, client, forms, panels } = await signedIn();
    const other = await signedIn();
    const theirs = await createTestForm(db(), other.guild.id);
    const res = await client.get(`${forms}/${theirs.id}`);
    expect([res.status, errorCodeOf(res)]).toEqual([404, 'FORM_NOT_FOUND']);
    const never = await client.get(`${panels}/7`);
    expect([never.status, errorCodeOf(never)]).toEqual([404, 'PANEL_NOT_FOUND']);

    await featureOff(db(), guild.id, 'applications');
    expect((await client.get(forms)).text).toContain('data-feature-off');
    expect((await client.get(panels)).text).toContain('data-feature-off');
    const before = await state(guild.id);
    const refused = await client.post(forms, FORM);
    expect([refused.status, errorCodeOf(refused)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await state(guild.id)).toEqual(before);
  });
});
