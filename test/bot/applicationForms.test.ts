import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForm } from '../../src/applications/createForm.js';
import { applicationApplyButtonId, applicationFormDialogId } from '../../src/applications/applicationButtons.js';
import { changeGuild } from '../../src/guild/guildManagement.js';
import { guildCreatePayload } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { seedFakeServer, type FakeServer } from './fakeServer.js';

// The application form through the real bot and the fake: the apply button opens the form's dialog, its submission
// is the submission `simulate application-submit` records (applications.submitted, the review message posted).

const NOW = new Date('2026-11-25T12:00:00Z');
const EPHEMERAL = 64;
const database = useTestDatabase();
let bed: BotBed;
let s: FakeServer;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  s = seedFakeServer(bed.fake);
  await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
  await changeGuild(database.db, s.id, { plan: 'pro', features: ['applications'] }, { type: 'system' });
});
afterAll(() => bed?.close());

const QUESTIONS = [
  { id: 'why', type: 'paragraph', label: 'Why do you want to join the staff?', required: true },
  { id: 'age', type: 'number', label: 'How old are you?', required: false },
];

const newForm = (questions = QUESTIONS) =>
  database.db.transaction().execute((trx) =>
    createForm(trx, {
      guildId: s.id,
      title: 'Staff application',
      description: '',
      open: true,
      opensAt: null,
      closesAt: null,
      questions,
      acceptRoleIds: [],
      removeRoleIds: [],
      reapplyCooldownSeconds: 86_400,
      announceChannelId: null,
      reviewChannelId: s.channels.general,
      at: NOW,
      actor: { type: 'system' },
    }),
  );

const interaction = (type: 3 | 5, data: Record<string, unknown>, userId: string) => {
  const id = snowflake();
  return {
    id,
    application_id: bed.fake.state.bot.id,
    type,
    token: `token-${id}`,
    version: 1,
    guild_id: s.id,
    channel_id: s.channels.general,
    member: { user: { id: userId, username: 'applicant', discriminator: '0', global_name: null, avatar: null }, roles: [], joined_at: '2026-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0, permissions: '0' },
    data,
    locale: 'en-US',
    app_permissions: '0',
    entitlements: [],
    authorizing_integration_owners: {},
  };
};
const textInputs = (values: Record<string, string>) => Object.entries(values).map(([custom_id, value]) => ({ type: 1, components: [{ type: 4, id: 1, custom_id, value }] }));
const answersTo = (token: string) => bed.fake.state.interactionAnswers.filter((a) => a.token === token).map((a) => a.body);
const submittedEvents = async (userId: string) =>
  (await database.db.selectFrom('events').select('data').where('guild_id', '=', s.id).where('type', '=', 'applications.submitted').execute())
    .map((e) => e.data as { userId: string; submissionNumber: number; answers: unknown })
    .filter((e) => e.userId === userId);

describe('the application form', () => {
  it("opens the form's dialog on the apply button, with the questions as its inputs", async () => {
    const form = await newForm();
    const apply = interaction(3, { custom_id: applicationApplyButtonId(form.id), component_type: 2 }, snowflake());
    await bed.dispatch('INTERACTION_CREATE', apply);
    expect(answersTo(apply.token)).toEqual([
      {
        type: 9,
        data: {
          custom_id: applicationFormDialogId(form.id),
          title: 'Staff application',
          components: [
            { type: 1, components: [{ type: 4, custom_id: 'why', label: 'Why do you want to join the staff?', style: 2, required: true }] },
            { type: 1, components: [{ type: 4, custom_id: 'age', label: 'How old are you?', style: 1, required: false }] },
          ],
        },
      },
    ]);
  });

  it('records the submitted dialog (applications.submitted), posts the review message and answers the applicant alone', async () => {
    const form = await newForm();
    const user = snowflake();
    const submit = interaction(5, { custom_id: applicationFormDialogId(form.id), components: textInputs({ why: 'I moderate two servers.', age: '' }) }, user);
    await bed.dispatch('INTERACTION_CREATE', submit);

    const [event] = await submittedEvents(user);
    expect(event).toMatchObject({ userId: user, formId: form.id, answers: [{ id: 'why', type: 'paragraph', label: 'Why do you want to join the staff?', value: 'I moderate two servers.' }] });
    expect(answersTo(submit.token)).toEqual([
      {
        type: 4,
        data: { content: `Your application #${event!.submissionNumber} to "Staff application" was submitted. You will hear from the staff.`, flags: EPHEMERAL, allowed_mentions: { parse: [] } },
      },
    ]);
    const review = [...bed.fake.state.messages.values()].filter((m) => m.channel_id === s.channels.general && m.content.includes(`Application #${event!.submissionNumber}`));
    expect(review).toHaveLength(1);
  });

  it('refuses a second submission while the first is open, with a clear answer and nothing stored', async () => {
    const form = await newForm();
    const user = snowflake();
    await bed.dispatch('INTERACTION_CREATE', interaction(5, { custom_id: applicationFormDialogId(form.id), components: textInputs({ why: 'First.' }) }, user));
    const again = interaction(5, { custom_id: applicationFormDialogId(form.id), components: textInputs({ why: 'Second.' }) }, user);
    await bed.dispatch('INTERACTION_CREATE', again);

    const submitted = await submittedEvents(user);
    expect(submitted).toHaveLength(1);
    expect(answersTo(again.token)).toEqual([
      {
        type: 4,
        data: { content: `Your application was not submitted: Submission ${submitted[0]!.submissionNumber} to this form is still open.`, flags: EPHEMERAL, allowed_mentions: { parse: [] } },
      },
    ]);
  });

  it('answers instead of opening a dialog when the form has more questions than a dialog holds', async () => {
    const form = await newForm(Array.from({ length: 6 }, (_, n) => ({ id: `q${n}`, type: 'short', label: `Question ${n}`, required: false })));
    const apply = interaction(3, { custom_id: applicationApplyButtonId(form.id), component_type: 2 }, snowflake());
    await bed.dispatch('INTERACTION_CREATE', apply);
    expect(answersTo(apply.token)).toEqual([
      {
        type: 4,
        data: {
          content: 'This form has 6 questions, more than a Discord dialog holds (5); ask the staff for another way to apply.',
          flags: EPHEMERAL,
          allowed_mentions: { parse: [] },
        },
      },
    ]);
  });
});
