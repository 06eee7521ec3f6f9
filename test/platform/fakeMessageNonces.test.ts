import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_INVITE_PERMISSIONS, addGuild, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { NONCE_WINDOW_MS } from '../../process/infra/fakeDiscord/messageNonces.js';
import { snowflake } from '../harness/fixtures.js';

// The fake's Create Message nonce as Discord's: an integer or a string of up to 25 characters (anything else 50035,
// nothing kept); with enforce_nonce, a second post with the same nonce in the channel within the window answers the
// first message; past the window, or without enforce_nonce, it is a new message.

let now = Date.UTC(2026, 11, 1, 10);
let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord({ now: () => now });
});
afterAll(() => fake.close());

function setup() {
  const [guildId, general, other, botRole] = [snowflake(), snowflake(), snowflake(), snowflake()];
  addGuild(fake.state, {
    id: guildId,
    name: 'Nonces',
    ownerId: snowflake(),
    roles: [{ id: botRole, name: 'Bot', position: 3, managed: true, permissions: BOT_INVITE_PERMISSIONS }],
    channels: [
      { id: general, type: 0, name: 'general' },
      { id: other, type: 0, name: 'other' },
    ],
    members: [{ id: fake.state.bot.id, username: 'bot', bot: true, roles: [botRole] }],
  });
  const post = (body: unknown, channel = general) =>
    fetch(`${fake.apiUrl}/v10/channels/${channel}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bot ${fake.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
  const stored = (channel = general) => [...fake.state.messages.values()].filter((m) => m.channel_id === channel);
  return { general, other, post, stored };
}

const invalidForm = (field: string, code: string, message: string) => ({ code: 50035, message: 'Invalid Form Body', errors: { [field]: { _errors: [{ code, message }] } } });

describe('fake Discord: message nonces', () => {
  it.each([
    ['a string nonce', 'retry-1'],
    ['an integer nonce', 1234567890],
  ])('%s with enforce_nonce: the second post answers the first message and makes none', async (_, nonce) => {
    const s = setup();
    const first = await s.post({ content: 'once', nonce, enforce_nonce: true });
    const second = await s.post({ content: 'once again', nonce, enforce_nonce: true });
    expect(first).toMatchObject({ status: 200, body: { content: 'once', nonce } });
    expect(second).toEqual(first);
    expect(s.stored().map((m) => m.content)).toEqual(['once']);
  });

  it('the window ends: the same nonce after it makes a second message, one just inside it does not', async () => {
    const s = setup();
    const first = await s.post({ content: 'a', nonce: 'window', enforce_nonce: true });
    now += NONCE_WINDOW_MS;
    expect((await s.post({ content: 'b', nonce: 'window', enforce_nonce: true })).body.id).toBe(first.body.id);
    now += 1;
    const late = await s.post({ content: 'c', nonce: 'window', enforce_nonce: true });
    expect(late.body.id).not.toBe(first.body.id);
    expect(s.stored().map((m) => m.content)).toEqual(['a', 'c']);
  });

  it('without enforce_nonce, or in another channel, the same nonce is a new message', async () => {
    const s = setup();
    await s.post({ content: 'a', nonce: 'same', enforce_nonce: true });
    await s.post({ content: 'b', nonce: 'same' });
    await s.post({ content: 'c', nonce: 'same', enforce_nonce: false });
    await s.post({ content: 'd', nonce: 'same', enforce_nonce: true }, s.other);
    expect(s.stored().map((m) => m.content)).toEqual(['a', 'b', 'c']);
    expect(s.stored(s.other).map((m) => m.content)).toEqual(['d']);
  });

  it.each([
    ['a string of 26 characters', { nonce: 'n'.repeat(26) }, invalidForm('nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.')],
    ['a fraction', { nonce: 1.5 }, invalidForm('nonce', 'NUMBER_TYPE_COERCE', 'Value "1.5" is not int.')],
    ['an integer past 2^53', { nonce: 2 ** 60 }, invalidForm('nonce', 'NUMBER_TYPE_COERCE', `Value "${2 ** 60}" is not int.`)],
    ['a boolean', { nonce: true }, invalidForm('nonce', 'BASE_TYPE_BAD_TYPE', 'Must be an integer or a string.')],
    ['an object', { nonce: { a: 1 } }, invalidForm('nonce', 'BASE_TYPE_BAD_TYPE', 'Must be an integer or a string.')],
    ['enforce_nonce as a string', { nonce: 'ok', enforce_nonce: 'true' }, invalidForm('enforce_nonce', 'BASE_TYPE_BAD_TYPE', 'Must be a boolean.')],
  ])('%s is refused with 50035 and nothing is posted', async (_, extra, errors) => {
    const s = setup();
    expect(await s.post({ content: 'x', ...extra })).toEqual({ status: 400, body: errors });
    expect(s.stored()).toEqual([]);
  });

  it('a 25-character nonce is taken', async () => {
    const s = setup();
    expect(await s.post({ content: 'x', nonce: 'n'.repeat(25), enforce_nonce: true })).toMatchObject({ status: 200, body: { nonce: 'n'.repeat(25) } });
  });
});
