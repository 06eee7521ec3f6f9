import type { APIMessage } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_INVITE_PERMISSIONS, addGuild, buttonPressPayload, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { fixedClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { PlatformRefusedError } from '../../src/core/platform.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { snowflake } from '../harness/fixtures.js';

// The fake refuses message components as Discord does (400/50035 with the field named in `errors`), shows buttons
// only on the bot's own messages, and answers 10008 to an edit of a deleted message; the adapter lays buttons out in
// rows of five and refuses what Discord would refuse without sending it.

let fake: FakeDiscord;
const guildId = snowflake();
const channelId = snowflake();
const memberId = snowflake();

beforeAll(async () => {
  fake = await startFakeDiscord();
  const botRole = snowflake();
  addGuild(fake.state, {
    id: guildId,
    name: 'Components',
    ownerId: snowflake(),
    roles: [{ id: botRole, name: 'Bot', position: 1, permissions: BOT_INVITE_PERMISSIONS }],
    channels: [{ id: channelId, type: 0, name: 'general' }],
    members: [
      { id: fake.state.bot.id, username: 'Community Bot', bot: true, roles: [botRole] },
      { id: memberId, username: 'member' },
    ],
  });
});
afterAll(() => fake.close());

const send = (method: string, path: string, body: unknown) =>
  fetch(`${fake.apiUrl}/v10${path}`, { method, headers: { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as Record<string, unknown>,
  }));
const button = (id: string, label = 'Press') => ({ type: 2, style: 1, custom_id: id, label });
const row = (...buttons: unknown[]) => ({ type: 1, components: buttons });
const platform = () => createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock: fixedClock(new Date('2026-11-29T12:00:00Z')), logger: createLogger('silent', 'components') });

describe("the fake's component rules", () => {
  it.each([
    ['six action rows', Array.from({ length: 6 }, (_, i) => row(button(`b${i}`))), { components: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 5 or fewer in length.' }] } }],
    ['six buttons in a row', [row(...Array.from({ length: 6 }, (_, i) => button(`b${i}`)))], { components: { 0: { components: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 5 in length.' }] } } } }],
    ['an empty row', [row()], { components: { 0: { components: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 5 in length.' }] } } } }],
    ['a custom_id of 101 characters', [row(button('x'.repeat(101)))], { components: { 0: { components: { 0: { custom_id: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 100 or fewer in length.' }] } } } } } }],
    ['a label of 81 characters', [row(button('a', 'y'.repeat(81)))], { components: { 0: { components: { 0: { label: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 80 or fewer in length.' }] } } } } } }],
    ['a custom_id used twice', [row(button('same')), row(button('same'))], { components: { 1: { components: { 0: { custom_id: { _errors: [{ code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id cannot be duplicated' }] } } } } } }],
  ])('%s: 400/50035 naming the field, and nothing is posted', async (_, components, errors) => {
    const before = fake.state.messages.size;
    const res = await send('POST', `/channels/${channelId}/messages`, { content: 'panel', components });
    expect(res).toEqual({ status: 400, body: { code: 50035, message: 'Invalid Form Body', errors } });
    expect(fake.state.messages.size).toBe(before);
  });

  it('takes 5 rows of 5 buttons with 100-character custom_ids and 80-character labels, and keeps them on the message', async () => {
    const components = Array.from({ length: 5 }, (_, r) => row(...Array.from({ length: 5 }, (_, b) => button(`${r}${b}`.padEnd(100, 'x'), 'z'.repeat(80)))));
    const res = await send('POST', `/channels/${channelId}/messages`, { content: 'full', components });
    expect(res.status).toBe(200);
    expect(fake.state.messages.get(res.body.id as string)!.components).toEqual(components);
  });

  it("an edit with components of a member's message is refused (50005): only the bot's messages carry its buttons, and none can be pressed on others'", async () => {
    const id = fake.state.nextId();
    fake.state.messages.set(id, { id, channel_id: channelId, author: fake.state.users.get(memberId)!, content: 'mine', components: [] } as unknown as APIMessage);
    const res = await send('PATCH', `/channels/${channelId}/messages/${id}`, { content: 'mine', components: [row(button('ticket:open:1'))] });
    expect(res).toEqual({ status: 403, body: { code: 50005, message: 'Cannot edit a message authored by another user' } });
    expect(fake.state.messages.get(id)!.components).toEqual([]);
    expect(() => buttonPressPayload(fake.state, { messageId: id, customId: 'ticket:open:1', userId: memberId })).toThrow(/is not the bot's/);
  });

  it('an edit of a deleted message answers 10008, and the adapter reads it as gone (false)', async () => {
    const posted = await send('POST', `/channels/${channelId}/messages`, { content: 'soon gone', components: [row(button('a'))] });
    fake.state.messages.delete(posted.body.id as string);
    expect(await send('PATCH', `/channels/${channelId}/messages/${posted.body.id as string}`, { content: 'x' })).toEqual({ status: 404, body: { code: 10008, message: 'Unknown Message' } });
    expect(await platform().editMessage(guildId, channelId, posted.body.id as string, 'x', { buttons: [] })).toBe(false);
  });

  it('a press only of a button that is on the message', async () => {
    const posted = await send('POST', `/channels/${channelId}/messages`, { content: 'one button', components: [row(button('ticket:open:2'))] });
    expect(() => buttonPressPayload(fake.state, { messageId: posted.body.id as string, customId: 'ticket:open:3', userId: memberId })).toThrow(/has no button "ticket:open:3"/);
    expect(buttonPressPayload(fake.state, { messageId: posted.body.id as string, customId: 'ticket:open:2', userId: memberId })).toMatchObject({
      type: 3,
      guild_id: guildId,
      member: { user: { id: memberId } },
      data: { custom_id: 'ticket:open:2', component_type: 2 },
    });
  });
});

describe("the adapter's buttons", () => {
  it('lays 7 buttons out in rows of 5 and 2', async () => {
    const buttons = Array.from({ length: 7 }, (_, i) => ({ id: `b${i}`, label: `B${i}` }));
    const id = await platform().postMessage(guildId, channelId, 'seven', `seven/${snowflake()}`, { buttons });
    expect(fake.state.messages.get(id)!.components).toEqual([row(...buttons.slice(0, 5).map((b) => button(b.id, b.label))), row(...buttons.slice(5).map((b) => button(b.id, b.label)))]);
  });

  it.each([
    ['26 buttons', Array.from({ length: 26 }, (_, i) => ({ id: `b${i}`, label: 'B' })), /at most 25 buttons/],
    ['an 81-character label', [{ id: 'a', label: 'l'.repeat(81) }], /label has 1 to 80 characters/],
    ['a 101-character custom_id', [{ id: 'i'.repeat(101), label: 'L' }], /custom_id has 1 to 100 characters/],
  ])('refuses %s without sending anything (INVALID_REQUEST)', async (_, buttons, message) => {
    const before = fake.requests.length;
    const post = platform().postMessage(guildId, channelId, 'x', `bad/${snowflake()}`, { buttons });
    await expect(post).rejects.toBeInstanceOf(PlatformRefusedError);
    await expect(post).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(message) });
    expect(fake.requests.length).toBe(before);
  });
});
