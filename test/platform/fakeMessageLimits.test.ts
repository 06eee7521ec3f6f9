import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { BOT_INVITE_PERMISSIONS, addGuild, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

// The fake refuses message bodies as Discord does (50035 Invalid Form Body with its `errors` object, 50006 for an
// empty message), keeps nothing it refused, and works out who a message pings from allowed_mentions.

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

function setup(botPermissions = BigInt(BOT_INVITE_PERMISSIONS)) {
  const guildId = snowflake();
  const [general, botRole, mentionable, quiet, alice] = [snowflake(), snowflake(), snowflake(), snowflake(), snowflake()];
  addGuild(fake.state, {
    id: guildId,
    name: 'Limits',
    ownerId: snowflake(),
    roles: [
      { id: botRole, name: 'Bot', position: 3, managed: true, permissions: String(botPermissions) },
      { id: mentionable, name: 'Giveaways', position: 1, mentionable: true },
      { id: quiet, name: 'Quiet', position: 1 },
    ],
    channels: [{ id: general, type: 0, name: 'general' }],
    members: [
      { id: fake.state.bot.id, username: 'bot', bot: true, roles: [botRole] },
      { id: alice, username: 'alice' },
    ],
  });
  const send = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
    fetch(`${fake.apiUrl}/v10${path}`, { method, headers: { Authorization: `Bot ${fake.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
    );
  const post = (body: unknown) => send('POST', `/channels/${general}/messages`, body);
  const stored = () => [...fake.state.messages.values()].filter((m) => m.channel_id === general);
  return { guildId, general, mentionable, quiet, alice, send, post, stored };
}

const maxLength = (max: number) => ({ _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` }] });
const invalidForm = (errors: unknown) => ({ code: 50035, message: 'Invalid Form Body', errors });
const field = (i: number) => ({ name: `f${i}`, value: 'v' });

describe('fake Discord: message limits', () => {
  it('takes 2,000 characters of content and refuses 2,001 with 50035, keeping nothing', async () => {
    const s = setup();
    expect((await s.post({ content: 'x'.repeat(2000) })).status).toBe(200);
    const refused = await s.post({ content: 'x'.repeat(2001) });
    expect(refused).toEqual({ status: 400, body: invalidForm({ content: maxLength(2000) }) });
    expect(s.stored().map((m) => m.content.length)).toEqual([2000]);
  });

  it.each([
    ['a title of 257', [{ title: 't'.repeat(257) }], { embeds: { 0: { title: maxLength(256) } } }],
    ['a description of 4,097', [{ description: 'd'.repeat(4097) }], { embeds: { 0: { description: maxLength(4096) } } }],
    ['a footer of 2,049', [{ footer: { text: 'f'.repeat(2049) } }], { embeds: { 0: { footer: { text: maxLength(2048) } } } }],
    ['26 fields', [{ fields: Array.from({ length: 26 }, (_, i) => field(i)) }], { embeds: { 0: { fields: maxLength(25) } } }],
    ['a field name of 257', [{ fields: [{ name: 'n'.repeat(257), value: 'v' }] }], { embeds: { 0: { fields: { 0: { name: maxLength(256) } } } } }],
    ['a field value of 1,025', [{ fields: [field(0), { name: 'n', value: 'v'.repeat(1025) }] }], { embeds: { 0: { fields: { 1: { value: maxLength(1024) } } } } }],
    [
      'a field without a value',
      [{ fields: [{ name: 'n', value: '' }] }],
      { embeds: { 0: { fields: { 0: { value: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } } } } } },
    ],
    ['11 embeds', Array.from({ length: 11 }, () => ({ title: 't' })), { embeds: maxLength(10) }],
    [
      '6,001 characters across two embeds',
      [{ description: 'd'.repeat(4000) }, { description: 'd'.repeat(2001) }],
      { embeds: { 1: { _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' }] } } },
    ],
    ['a colour past 0xFFFFFF', [{ color: 0x1000000 }], { embeds: { 0: { color: { _errors: [{ code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 16777215.' }] } } } }],
    [
      'an image that is no http(s) link',
      [{ image: { url: 'ftp://img.example/a.png' } }],
      { embeds: { 0: { image: { url: { _errors: [{ code: 'URL_TYPE_INVALID_SCHEME', message: `Scheme "ftp" is not supported. Scheme must be one of ('http', 'https').` }] } } } } },
    ],
  ])('refuses embeds with %s (50035, the field named)', async (_, embeds, errors) => {
    const s = setup();
    expect(await s.post({ content: 'x', embeds })).toEqual({ status: 400, body: invalidForm(errors) });
    expect(s.stored()).toEqual([]);
  });

  it('takes embeds at their limits: 10 embeds, 25 fields, 6,000 characters in all', async () => {
    const s = setup();
    const fields = Array.from({ length: 25 }, (_, i) => field(i));
    const rest = 6000 - 256 - 4096 - fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
    const embeds = [{ title: 't'.repeat(256), description: 'd'.repeat(4096), fields }, { description: 'd'.repeat(rest) }];
    expect((await s.post({ embeds: [...embeds, ...Array.from({ length: 8 }, () => ({ color: 1 }))] })).status).toBe(200);
    expect(s.stored()[0]!.embeds).toHaveLength(10);
    const over = await s.post({ embeds: [embeds[0], { description: 'd'.repeat(rest + 1) }] });
    expect(over.body).toMatchObject({ code: 50035, errors: { embeds: { 1: { _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED' }] } } } });
  });

  it.each([
    ['parse with a value Discord does not know', { parse: ['users', 'channels'] }, { allowed_mentions: { parse: { 1: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: "Value must be one of ('roles', 'users', 'everyone')." }] } } } }],
    [
      'parse users beside a users list',
      { parse: ['users'], users: ['200000000000000001'] },
      { allowed_mentions: { _errors: [{ code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE', message: 'parse:["users"] and users: [ids...] are mutually exclusive.' }] } },
    ],
    ['101 roles', { roles: Array.from({ length: 101 }, () => snowflake()) }, { allowed_mentions: { roles: maxLength(100) } }],
    ['a user id that is no snowflake', { users: ['alice'] }, { allowed_mentions: { users: { 0: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "alice" is not snowflake.' }] } } } }],
    ['a list for an object', ['users'], { allowed_mentions: { _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] } }],
  ])('refuses allowed_mentions with %s', async (_, allowed, errors) => {
    const s = setup();
    expect(await s.post({ content: 'hi', allowed_mentions: allowed })).toEqual({ status: 400, body: invalidForm(errors) });
    expect(s.stored()).toEqual([]);
  });

  it('refuses an empty message with 50006, and an edit that would leave one', async () => {
    const s = setup();
    expect(await s.post({ content: '' })).toEqual({ status: 400, body: { code: 50006, message: 'Cannot send an empty message' } });
    const posted = await s.post({ content: '', embeds: [{ title: 'Card' }] });
    expect(posted.status).toBe(200);
    const path = `/channels/${s.general}/messages/${posted.body.id as string}`;
    expect(await s.send('PATCH', path, { embeds: [] })).toEqual({ status: 400, body: { code: 50006, message: 'Cannot send an empty message' } });
    expect(await s.send('PATCH', path, { content: 'y'.repeat(2001) })).toEqual({ status: 400, body: invalidForm({ content: maxLength(2000) }) });
    expect(s.stored().map((m) => [m.content, m.embeds])).toEqual([['', [{ title: 'Card' }]]]);
    expect((await s.send('PATCH', path, { content: 'Ended', components: [] })).body).toMatchObject({ content: 'Ended', embeds: [{ title: 'Card' }], components: [] });
  });

  it('pings only what allowed_mentions names: the role given, not the one left out, and no @everyone unless parsed', async () => {
    const s = setup();
    const content = `<@&${s.mentionable}> <@&${s.quiet}> <@${s.alice}> @everyone`;
    const named = await s.post({ content, allowed_mentions: { parse: [], users: [], roles: [s.mentionable] } });
    expect(named.body).toMatchObject({ mention_roles: [s.mentionable], mentions: [], mention_everyone: false });
    // Without allowed_mentions Discord parses every kind; the bot holds Mention Everyone (the invite's permissions).
    const open = await s.post({ content });
    expect(open.body).toMatchObject({ mention_roles: [s.mentionable, s.quiet], mentions: [{ id: s.alice }], mention_everyone: true });
  });

  it('without Mention Everyone a role pings only when mentionable; without Embed Links the embeds are dropped', async () => {
    const s = setup(BigInt(BOT_INVITE_PERMISSIONS) & ~P.MentionEveryone & ~P.EmbedLinks);
    const posted = await s.post({ content: `<@&${s.mentionable}> <@&${s.quiet}>`, allowed_mentions: { parse: ['roles'] }, embeds: [{ title: 'Card' }] });
    expect(posted.body).toMatchObject({ mention_roles: [s.mentionable], embeds: [] });
  });
});
