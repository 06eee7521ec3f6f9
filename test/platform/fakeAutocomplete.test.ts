import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  addGuild,
  attachFakeGateway,
  autocompleteInteraction,
  commandInteraction,
  startFakeDiscord,
  type CommandUse,
  type FakeDiscord,
  type FakeGateway,
} from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

// The fake takes an answer to an interaction as Discord does as far as autocomplete goes: type 8 only to an
// autocomplete interaction and only type 8 to one; at most 25 choices, names of 1 to 100 characters, values of the
// focused option's type (strings of 1 to 100 characters). A refused answer is 400/50035 naming the field, and the
// interaction stays unanswered.

let fake: FakeDiscord;
let gateway: FakeGateway;
let socket: WebSocket;
const guildId = snowflake();
const userId = snowflake();
beforeAll(async () => {
  fake = await startFakeDiscord();
  gateway = attachFakeGateway(fake);
  addGuild(fake.state, { id: guildId, name: 'Autocomplete', ownerId: snowflake(), roles: [], channels: [{ id: snowflake(), type: 0, name: 'general' }], members: [{ id: userId, username: 'typist' }] });
  const put = await fetch(`${fake.apiUrl}/v10/applications/${fake.state.bot.id}/commands`, {
    method: 'PUT',
    headers: { Authorization: `Bot ${fake.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify([
      {
        name: 'pick',
        description: 'Pick one',
        options: [
          { type: 3, name: 'text', description: 'A string', autocomplete: true },
          { type: 4, name: 'count', description: 'An integer', autocomplete: true },
          { type: 10, name: 'ratio', description: 'A number', autocomplete: true },
        ],
      },
    ]),
  });
  expect(put.status).toBe(200);
  // A session to dispatch on: the gateway sends INTERACTION_CREATE, which starts the interaction's token.
  socket = new WebSocket(`${gateway.url}?v=10&encoding=json`);
  await once(socket, 'message');
  socket.send(JSON.stringify({ op: 2, d: { token: fake.token, intents: 1, shard: [0, 1] } }));
  await once(socket, 'message');
});
afterAll(async () => {
  socket.close();
  await fake.close();
});

type Sent = { id: string; token: string };
function send(payload: Sent) {
  gateway.dispatch('INTERACTION_CREATE', payload);
  return payload;
}
const typing = (focused: 'text' | 'count' | 'ratio', options: CommandUse['options'] = {}) =>
  send(autocompleteInteraction(fake.state, { guildId, userId, name: 'pick', options: { [focused]: focused === 'text' ? 'a' : 1, ...options }, focused }));
const used = () => send(commandInteraction(fake.state, { guildId, userId, name: 'pick' }));

async function answer(i: Sent, body: unknown) {
  const res = await fetch(`${fake.apiUrl}/v10/interactions/${i.id}/${i.token}/callback`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as unknown) };
}
const answered = (i: Sent) => fake.state.interactionAnswers.filter((a) => a.token === i.token).length;
const refused = (path: Array<string | number>, code: string, message: string) => ({
  status: 400,
  body: { code: 50035, message: 'Invalid Form Body', errors: path.reduceRight<Record<string, unknown>>((inner, step) => ({ [String(step)]: inner }), { _errors: [{ code, message }] }) },
});
const choices = (n: number, make: (i: number) => { name: string; value: unknown }) => ({ type: 8, data: { choices: Array.from({ length: n }, (_, i) => make(i)) } });

describe('fake Discord: autocomplete answers', () => {
  it.each([
    ['25 string choices with names and values of 100 characters', 'text', choices(25, (i) => ({ name: `${i}`.padEnd(100, 'n'), value: `${i}`.padEnd(100, 'v') }))],
    ['no choices', 'text', { type: 8, data: { choices: [] } }],
    ['integer values for an integer option', 'count', choices(3, (i) => ({ name: `#${i}`, value: i }))],
    ['fractions for a number option', 'ratio', choices(2, (i) => ({ name: `${i}.5`, value: i + 0.5 }))],
  ] as const)('takes %s', async (_, focused, body) => {
    const i = typing(focused);
    expect(await answer(i, body)).toEqual({ status: 204, body: null });
    expect(answered(i)).toBe(1);
  });

  it.each([
    ['26 choices', 'text', choices(26, (i) => ({ name: `n${i}`, value: `v${i}` })), refused(['data', 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.')],
    ['a name of 101 characters', 'text', choices(1, () => ({ name: 'n'.repeat(101), value: 'v' })), refused(['data', 'choices', 0, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.')],
    ['an empty name', 'text', choices(2, (i) => ({ name: i ? '' : 'ok', value: 'v' })), refused(['data', 'choices', 1, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.')],
    ['a blank name', 'text', choices(1, () => ({ name: '   ', value: 'v' })), refused(['data', 'choices', 0, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.')],
    ['a string value of 101 characters', 'text', choices(1, () => ({ name: 'n', value: 'v'.repeat(101) })), refused(['data', 'choices', 0, 'value'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.')],
    ['a number for a string option', 'text', choices(1, () => ({ name: 'n', value: 7 })), refused(['data', 'choices', 0, 'value'], 'BASE_TYPE_BAD_TYPE', 'Must be a string.')],
    ['a string for an integer option', 'count', choices(1, () => ({ name: 'n', value: '7' })), refused(['data', 'choices', 0, 'value'], 'NUMBER_TYPE_COERCE', 'Value "7" is not int.')],
    ['a fraction for an integer option', 'count', choices(1, () => ({ name: 'n', value: 1.5 })), refused(['data', 'choices', 0, 'value'], 'NUMBER_TYPE_COERCE', 'Value "1.5" is not int.')],
    ['a string for a number option', 'ratio', choices(1, () => ({ name: 'n', value: 'x' })), refused(['data', 'choices', 0, 'value'], 'NUMBER_TYPE_COERCE', 'Value "x" is not a valid number.')],
    ['no choices field', 'text', { type: 8, data: {} }, refused(['data', 'choices'], 'BASE_TYPE_REQUIRED', 'This field is required')],
    ['a message instead of type 8', 'text', { type: 4, data: { content: 'hi' } }, refused(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of {8}.')],
  ] as const)('refuses %s with 50035, the interaction left unanswered', async (_, focused, body, expected) => {
    const i = typing(focused);
    expect(await answer(i, body)).toEqual(expected);
    expect(answered(i)).toBe(0);
  });

  it('refuses type 8 to an application command (not autocomplete) with 50035; a message answer then goes through', async () => {
    const i = used();
    expect(await answer(i, { type: 8, data: { choices: [] } })).toEqual(refused(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of {4, 5, 6, 7, 9}.'));
    expect(answered(i)).toBe(0);
    expect(await answer(i, { type: 4, data: { content: 'ok' } })).toEqual({ status: 204, body: null });
  });
});
