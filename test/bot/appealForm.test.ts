import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appealFormDialogId, appealOpenButtonId } from '../../src/appeals/appealForm.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { startBotBedOnServer, type BotBed } from './botHarness.js';
import type { FakeServer } from './fakeServer.js';
import { buttonPress, dialogSubmit, ephemeralAnswer } from './payloads.js';

// The ban appeal form through the real bot and the fake, from a DM (a banned user is outside the server): the button
// opens the appeal dialog, its submission files the appeal `simulate appeal-file` files, with the ban read from Discord.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;
let s: FakeServer;

beforeAll(async () => {
  ({ bed, server: s } = await startBotBedOnServer(database, NOW, ['appeals']));
});
afterAll(() => bed?.close());

function bannedUser(): string {
  const userId = snowflake();
  const user = { id: userId, username: 'banned', discriminator: '0', global_name: null, avatar: null };
  bed.fake.state.users.set(userId, user);
  bed.fake.state.guilds.get(s.id)!.bans.set(userId, { user, reason: 'spam' });
  return userId;
}

const IN_DM = { dm: true } as const;
const answersTo = (token: string) => bed.answersTo(token).map((a) => a.body);
const appealsOf = (userId: string) =>
  database.db.selectFrom('events').select('data').where('guild_id', '=', s.id).where('type', '=', 'appeals.submitted').execute().then((rows) => rows.map((r) => r.data as Record<string, unknown>).filter((d) => d.userId === userId));
const reply = (content: string) => [ephemeralAnswer(content)];

describe('the ban appeal form', () => {
  it('opens the appeal dialog from the button in a DM', async () => {
    const open = buttonPress(bed.fake.state.bot.id, appealOpenButtonId(s.id), bannedUser(), IN_DM);
    await bed.dispatch('INTERACTION_CREATE', open);
    expect(answersTo(open.token)).toEqual([
      {
        type: 9,
        data: {
          custom_id: appealFormDialogId(s.id),
          title: 'Ban appeal',
          components: [
            { type: 1, components: [{ type: 4, custom_id: 'why', label: 'Why should we lift your ban?', style: 2, required: true }] },
            { type: 1, components: [{ type: 4, custom_id: 'context', label: 'Anything else the staff should know?', style: 2, required: false }] },
          ],
        },
      },
    ]);
  });

  it('files the appeal of a banned user (appeals.submitted with the answers) and answers them alone; a second one is refused', async () => {
    const user = bannedUser();
    const submit = dialogSubmit(bed.fake.state.bot.id, appealFormDialogId(s.id), { why: 'It was my brother.', context: '' }, user, IN_DM);
    await bed.dispatch('INTERACTION_CREATE', submit);
    const [appeal] = await appealsOf(user);
    expect(appeal).toMatchObject({ userId: user, answers: [{ id: 'why', type: 'paragraph', label: 'Why should we lift your ban?', value: 'It was my brother.' }] });
    expect(answersTo(submit.token)).toEqual(reply(`Your appeal #${appeal!.appealNumber} was filed. The staff's decision will reach you in a direct message.`));

    const again = dialogSubmit(bed.fake.state.bot.id, appealFormDialogId(s.id), { why: 'Please.' }, user, IN_DM);
    await bed.dispatch('INTERACTION_CREATE', again);
    expect(await appealsOf(user)).toHaveLength(1);
    expect(answersTo(again.token)).toEqual(reply('You already have an appeal waiting for a decision.'));
  });

  it('refuses a user who is not banned, filing nothing', async () => {
    const user = snowflake();
    const submit = dialogSubmit(bed.fake.state.bot.id, appealFormDialogId(s.id), { why: 'Just in case.' }, user, IN_DM);
    await bed.dispatch('INTERACTION_CREATE', submit);
    expect(await appealsOf(user)).toEqual([]);
    expect(answersTo(submit.token)).toEqual(reply('You are not banned from this server: there is nothing to appeal.'));
  });
});
