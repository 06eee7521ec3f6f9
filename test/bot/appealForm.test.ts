import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appealFormDialogId, appealOpenButtonId } from '../../src/appeals/appealForm.js';
import { changeGuild } from '../../src/guild/guildManagement.js';
import { guildCreatePayload } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { seedFakeServer, type FakeServer } from './fakeServer.js';

// The ban appeal form through the real bot and the fake, from a DM (a banned user is outside the server): the button
// opens the appeal dialog, its submission files the appeal `simulate appeal-file` files, with the ban read from Discord.

const NOW = new Date('2026-11-25T12:00:00Z');
const EPHEMERAL = 64;
const database = useTestDatabase();
let bed: BotBed;
let s: FakeServer;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  s = seedFakeServer(bed.fake);
  await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
  await changeGuild(database.db, s.id, { plan: 'pro', features: ['appeals'] }, { type: 'system' });
});
afterAll(() => bed?.close());

function bannedUser(): string {
  const userId = snowflake();
  const user = { id: userId, username: 'banned', discriminator: '0', global_name: null, avatar: null };
  bed.fake.state.users.set(userId, user);
  bed.fake.state.guilds.get(s.id)!.bans.set(userId, { user, reason: 'spam' });
  return userId;
}

/** An interaction in the user's DM with the bot: `user`, no guild_id or member. */
const inDm = (type: 3 | 5, data: Record<string, unknown>, userId: string) => {
  const id = snowflake();
  return {
    id,
    application_id: bed.fake.state.bot.id,
    type,
    token: `token-${id}`,
    version: 1,
    channel_id: snowflake(),
    user: { id: userId, username: 'banned', discriminator: '0', global_name: null, avatar: null },
    data,
    locale: 'en-US',
    app_permissions: '0',
    entitlements: [],
    authorizing_integration_owners: {},
  };
};
const dialog = (values: Record<string, string>) => Object.entries(values).map(([custom_id, value]) => ({ type: 1, components: [{ type: 4, id: 1, custom_id, value }] }));
const answersTo = (token: string) => bed.fake.state.interactionAnswers.filter((a) => a.token === token).map((a) => a.body);
const appealsOf = (userId: string) =>
  database.db.selectFrom('events').select('data').where('guild_id', '=', s.id).where('type', '=', 'appeals.submitted').execute().then((rows) => rows.map((r) => r.data as Record<string, unknown>).filter((d) => d.userId === userId));
const reply = (content: string) => [{ type: 4, data: { content, flags: EPHEMERAL, allowed_mentions: { parse: [] } } }];

describe('the ban appeal form', () => {
  it('opens the appeal dialog from the button in a DM', async () => {
    const open = inDm(3, { custom_id: appealOpenButtonId(s.id), component_type: 2 }, bannedUser());
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
    const submit = inDm(5, { custom_id: appealFormDialogId(s.id), components: dialog({ why: 'It was my brother.', context: '' }) }, user);
    await bed.dispatch('INTERACTION_CREATE', submit);
    const [appeal] = await appealsOf(user);
    expect(appeal).toMatchObject({ userId: user, answers: [{ id: 'why', type: 'paragraph', label: 'Why should we lift your ban?', value: 'It was my brother.' }] });
    expect(answersTo(submit.token)).toEqual(reply(`Your appeal #${appeal!.appealNumber} was filed. The staff's decision will reach you in a direct message.`));

    const again = inDm(5, { custom_id: appealFormDialogId(s.id), components: dialog({ why: 'Please.' }) }, user);
    await bed.dispatch('INTERACTION_CREATE', again);
    expect(await appealsOf(user)).toHaveLength(1);
    expect(answersTo(again.token)).toEqual(reply('You already have an appeal waiting for a decision.'));
  });

  it('refuses a user who is not banned, filing nothing', async () => {
    const user = snowflake();
    const submit = inDm(5, { custom_id: appealFormDialogId(s.id), components: dialog({ why: 'Just in case.' }) }, user);
    await bed.dispatch('INTERACTION_CREATE', submit);
    expect(await appealsOf(user)).toEqual([]);
    expect(answersTo(submit.token)).toEqual(reply('You are not banned from this server: there is nothing to appeal.'));
  });
});
