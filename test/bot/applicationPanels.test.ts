import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findApplicationPanel } from '../../db/applications/panels.js';
import { addGuild, addMember, buttonPressPayload } from '../../process/infra/fakeDiscord/index.js';
import { applicationApplyButtonId, applicationFormDialogId } from '../../src/applications/applicationButtons.js';
import { createLogger } from '../../src/core/logger.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { cli } from '../admin/cli.js';
import { createPanelForm } from '../harness/applications.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake } from '../harness/fixtures.js';
import { startBotBedOnServer, type BotBed } from './botHarness.js';
import { serverWithBot } from './fakeServer.js';

// The application panel the service posts: one apply button per form, in rows of five, posted once and edited in
// place; a button pressed on the posted message opens that form's dialog.

const NOW = new Date('2026-11-29T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;

beforeAll(async () => {
  ({ bed } = await startBotBedOnServer(database, NOW, ['applications']));
});
afterAll(() => bed?.close());

const admin = (...argv: string[]) =>
  cli(() => database.db, bed.clock, {
    platform: createDiscordPlatform({ token: bed.fake.token, apiUrl: bed.fake.apiUrl, clock: bed.clock, logger: createLogger('silent', 'panel-test') }),
  })(...argv);

const newForm = (guildId: string, title: string) => createPanelForm(database.db, guildId, title, NOW);

/** A server of its own (forms are per server), on the fake with a #apply channel. */
async function serverWithForms(titles: string[]) {
  const guild = await createTestGuild(database.db, { features: ['applications'] });
  const channelId = snowflake();
  const seed = serverWithBot(bed.fake, guild, 'Forms');
  seed.channels.push({ id: channelId, type: 0, name: 'apply' });
  addGuild(bed.fake.state, seed);
  const forms = [];
  for (const title of titles) forms.push(await newForm(guild.id, title));
  return { guildId: guild.id, channelId, forms };
}

type Row = { type: number; components: Array<{ custom_id: string; label: string }> };
const rowsOf = (messageId: string) => (bed.fake.state.messages.get(messageId)!.components as unknown as Row[]).map((r) => r.components.map((b) => [b.custom_id, b.label]));

describe('applications panel post and update', () => {
  it('one apply button per form, in console order, five to a row; a long title is cut to 80 characters', async () => {
    const long = `Moderator application ${'x'.repeat(100)}`;
    const { guildId, channelId, forms } = await serverWithForms(['Staff', 'Events', 'Art', 'Music', 'Partners', 'Builders', long]);
    const res = await admin('applications', 'panel', 'post', '--guild', guildId, '--panel', '1', '--channel', channelId, '--text', 'Apply below.', '--json');
    expect(res.stderr).toBe('');
    expect(res.json()).toMatchObject({ outcome: 'posted', formIds: null, channelId });
    const buttons = forms.map((f, i) => [applicationApplyButtonId(f.id), i === 6 ? `${long.slice(0, 79)}…` : f.title]);
    expect(rowsOf(res.json().messageId)).toEqual([buttons.slice(0, 5), buttons.slice(5)]);
    expect(bed.fake.state.messages.get(res.json().messageId)).toMatchObject({ content: 'Apply below.', author: { id: bed.fake.state.bot.id } });
  });

  it('--forms picks and orders them; an update after a new form edits the same message; pressing a posted button opens the form', async () => {
    const { guildId, channelId, forms } = await serverWithForms(['Staff', 'Events', 'Art']);
    const first = (await admin('applications', 'panel', 'post', '--guild', guildId, '--panel', '1', '--channel', channelId, '--text', 'Apply', '--forms', `${forms[2]!.id},${forms[0]!.id}`, '--json')).json();
    expect(rowsOf(first.messageId)).toEqual([[[applicationApplyButtonId(forms[2]!.id), 'Art'], [applicationApplyButtonId(forms[0]!.id), 'Staff']]]);

    const added = await newForm(guildId, 'Mentors');
    const updated = (await admin('applications', 'panel', 'update', '--guild', guildId, '--panel', '1', '--forms', 'all', '--json')).json();
    expect(updated).toMatchObject({ outcome: 'edited', messageId: first.messageId, formIds: null });
    expect(rowsOf(first.messageId)).toEqual([[...forms, added].map((f) => [applicationApplyButtonId(f.id), f.title])]);

    const applicant = snowflake();
    addMember(bed.fake.state, bed.fake.state.guilds.get(guildId)!, { id: applicant, username: 'ana' });
    const press = buttonPressPayload(bed.fake.state, { messageId: first.messageId, customId: applicationApplyButtonId(added.id), userId: applicant, at: bed.clock.now() });
    await bed.dispatch('INTERACTION_CREATE', press);
    expect(bed.answersTo(press.token).map((a) => a.body)).toEqual([
      { type: 9, data: expect.objectContaining({ custom_id: applicationFormDialogId(added.id), title: 'Mentors' }) },
    ]);
  });

  it('refusals change nothing: an unknown form, more than 25 forms, no form at all, an unknown channel', async () => {
    const many = await serverWithForms(Array.from({ length: 26 }, (_, i) => `Form ${i + 1}`));
    const tooMany = await admin('applications', 'panel', 'post', '--guild', many.guildId, '--panel', '1', '--channel', many.channelId, '--text', 'Apply', '--json');
    expect(tooMany.error()).toEqual({
      error: 'TOO_MANY_BUTTONS',
      message: 'A message holds at most 25 buttons (5 rows of 5) and the panel would show 26 forms; name at most 25 of them.',
    });
    const ok = (await admin('applications', 'panel', 'post', '--guild', many.guildId, '--panel', '1', '--channel', many.channelId, '--text', 'Apply', '--forms', String(many.forms[0]!.id), '--json')).json();
    const stored = await findApplicationPanel(database.db, many.guildId, 1);
    const patchesBefore = bed.fake.requests.filter((r) => r.method === 'PATCH').length;
    const unknownForm = await admin('applications', 'panel', 'update', '--guild', many.guildId, '--panel', '1', '--forms', '999999', '--json');
    expect(unknownForm.error()).toEqual({ error: 'FORM_NOT_FOUND', message: `Form 999999 is not a form of guild ${many.guildId}.` });
    const unknownChannel = await admin('applications', 'panel', 'update', '--guild', many.guildId, '--panel', '1', '--channel', snowflake(), '--json');
    expect(unknownChannel.error().error).toBe('UNKNOWN_CHANNEL');
    expect(await findApplicationPanel(database.db, many.guildId, 1)).toEqual(stored);
    expect(bed.fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(patchesBefore);
    expect(rowsOf(ok.messageId)).toEqual([[[applicationApplyButtonId(many.forms[0]!.id), 'Form 1']]]);

    const none = await serverWithForms([]);
    const posts = bed.fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${none.channelId}/messages`);
    const empty = await admin('applications', 'panel', 'post', '--guild', none.guildId, '--panel', '1', '--channel', none.channelId, '--text', 'Apply', '--json');
    expect(empty.error()).toEqual({ error: 'INVALID_PANEL', message: `Guild ${none.guildId} has no application form to show; create one first.` });
    expect(posts).toEqual([]);
    expect(await findApplicationPanel(database.db, none.guildId, 1)).toBeUndefined();
  });
});

