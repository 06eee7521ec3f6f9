import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForm } from '../../src/applications/createForm.js';
import { applicationApplyButtonId, applicationFormDialogId } from '../../src/applications/applicationButtons.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { startBotBedOnServer, type BotBed } from './botHarness.js';
import type { FakeServer } from './fakeServer.js';
import { buttonPress, dialogSubmit, ephemeralAnswer } from './payloads.js';

// The application form through the real bot and the fake: the apply button opens the form's dialog, its submission
// is the submission `simulate application-submit` records (applications.submitted, the review message posted).

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;
let s: FakeServer;

beforeAll(async () => {
  ({ bed, server: s } = await startBotBedOnServer(database, NOW, ['applications']));
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

const IN_GENERAL = () => ({ guildId: s.id, channelId: s.channels.general });
const applyPress = (formId: number, userId: string) => buttonPress(bed.fake.state.bot.id, applicationApplyButtonId(formId), userId, IN_GENERAL());
const formSubmit = (formId: number, values: Record<string, string>, userId: string) => dialogSubmit(bed.fake.state.bot.id, applicationFormDialogId(formId), values, userId, IN_GENERAL());
const answersTo = (token: string) => bed.answersTo(token).map((a) => a.body);
const submittedEvents = async (userId: string) =>
  (await database.db.selectFrom('events').select('data').where('guild_id', '=', s.id).where('type', '=', 'applications.submitted').execute())
    .map((e) => e.data as { userId: string; submissionNumber: number; answers: unknown })
    .filter((e) => e.userId === userId);

describe('the application form', () => {
  it("opens the form's dialog on the apply button, with the questions as its inputs", async () => {
    const form = await newForm();
    const apply = applyPress(form.id, snowflake());
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
    const submit = formSubmit(form.id, { why: 'I moderate two servers.', age: '' }, user);
    await bed.dispatch('INTERACTION_CREATE', submit);

    const [event] = await submittedEvents(user);
    expect(event).toMatchObject({ userId: user, formId: form.id, answers: [{ id: 'why', type: 'paragraph', label: 'Why do you want to join the staff?', value: 'I moderate two servers.' }] });
    expect(answersTo(submit.token)).toEqual([ephemeralAnswer(`Your application #${event!.submissionNumber} to "Staff application" was submitted. You will hear from the staff.`)]);
    const review = [...bed.fake.state.messages.values()].filter((m) => m.channel_id === s.channels.general && m.content.includes(`Application #${event!.submissionNumber}`));
    expect(review).toHaveLength(1);
  });

  it('refuses a second submission while the first is open, with a clear answer and nothing stored', async () => {
    const form = await newForm();
    const user = snowflake();
    await bed.dispatch('INTERACTION_CREATE', formSubmit(form.id, { why: 'First.' }, user));
    const again = formSubmit(form.id, { why: 'Second.' }, user);
    await bed.dispatch('INTERACTION_CREATE', again);

    const submitted = await submittedEvents(user);
    expect(submitted).toHaveLength(1);
    expect(answersTo(again.token)).toEqual([ephemeralAnswer(`Your application was not submitted: Submission ${submitted[0]!.submissionNumber} to this form is still open.`)]);
  });

  it('answers instead of opening a dialog when the form has more questions than a dialog holds', async () => {
    const form = await newForm(Array.from({ length: 6 }, (_, n) => ({ id: `q${n}`, type: 'short', label: `Question ${n}`, required: false })));
    const apply = applyPress(form.id, snowflake());
    await bed.dispatch('INTERACTION_CREATE', apply);
    expect(answersTo(apply.token)).toEqual([ephemeralAnswer('This form has 6 questions, more than a Discord dialog holds (5); ask the staff for another way to apply.')]);
  });
});
