import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredCommands, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { COMMAND_DEFINITIONS } from '../../process/bot/commands/commandTable.js';

// The fake refuses application command lists as Discord does: 400 with 50035 Invalid Form Body and the `errors` tree
// naming the field, and a refused list leaves the registered one as it was.

let fake: FakeDiscord;
let appId: string;
beforeAll(async () => {
  fake = await startFakeDiscord();
  appId = fake.state.bot.id;
});
afterAll(() => fake.close());

/** One PUT as a well-behaved client sends it: a 429 (the route's bucket, which this file's many PUTs empty) waited out. */
async function put(body: unknown, path = `/applications/${appId}/commands`): Promise<{ status: number; body: { code?: number; message?: string; errors?: unknown } }> {
  const res = await fetch(`${fake.apiUrl}/v10${path}`, {
    method: 'PUT',
    headers: { Authorization: `Bot ${fake.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { code?: number; message?: string; errors?: unknown; retry_after?: number };
  if (res.status !== 429) return { status: res.status, body: answer };
  await sleep(Math.ceil((answer.retry_after ?? Number(res.headers.get('retry-after'))) * 1000));
  return put(body, path);
}

const slash = (extra: Record<string, unknown> = {}) => ({ name: 'rank', description: 'Your rank', ...extra });
const opt = (name: string, extra: Record<string, unknown> = {}) => ({ type: 3, name, description: `The ${name}`, ...extra });
const many = (n: number, make: (i: number) => unknown) => Array.from({ length: n }, (_, i) => make(i));

describe("the fake's check of command definitions", () => {
  it("takes the bot's own definitions (every command within Discord's limits)", async () => {
    const res = await put(COMMAND_DEFINITIONS);
    expect(res.status).toBe(200);
    expect(registeredCommands(fake.state).map((c) => c.name)).toEqual(COMMAND_DEFINITIONS.map((c) => c.name));
  });

  it.each([
    ['an upper-case name', [slash({ name: 'Rank' })], { 0: { name: { _errors: [{ code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' }] } } }],
    ['a name with a space', [slash({ name: 'my rank' })], { 0: { name: { _errors: [{ code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' }] } } }],
    ['a 33-character name', [slash({ name: 'r'.repeat(33) })], { 0: { name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 32 in length.' }, { code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' }] } } }],
    ['a 101-character description', [slash({ description: 'd'.repeat(101) })], { 0: { description: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }] } } }],
    ['no description', [{ name: 'rank' }], { 0: { description: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } } }],
    ['a required option after an optional one', [slash({ options: [opt('a'), opt('b', { required: true })] })], { 0: { options: { 1: { required: { _errors: [{ code: 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', message: 'Required options must be placed before non-required options' }] } } } } }],
    ['26 options', [slash({ options: many(26, (i) => opt(`o${i}`)) })], { 0: { options: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }] } } }],
    ['26 choices', [slash({ options: [opt('a', { choices: many(26, (i) => ({ name: `c${i}`, value: `c${i}` })) })] })], { 0: { options: { 0: { choices: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }] } } } } }],
    ['an unknown option type', [slash({ options: [opt('a', { type: 12 })] })], { 0: { options: { 0: { type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.' }] } } } } }],
    ['min_value above max_value', [slash({ options: [{ type: 4, name: 'page', description: 'Page', min_value: 5, max_value: 1 }] })], { 0: { options: { 0: { min_value: { _errors: [{ code: 'APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID', message: 'min_value must be less than or equal to max_value' }] } } } } }],
    ['min_value on a user option', [slash({ options: [{ type: 6, name: 'member', description: 'Who', min_value: 1 }] })], { 0: { options: { 0: { min_value: { _errors: [{ code: 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', message: 'min_value is only allowed on integer and number options' }] } } } } }],
    ['choices with autocomplete', [slash({ options: [opt('a', { autocomplete: true, choices: [{ name: 'x', value: 'x' }] })] })], { 0: { options: { 0: { autocomplete: { _errors: [{ code: 'APPLICATION_COMMAND_AUTOCOMPLETE_INVALID', message: 'Autocomplete cannot be enabled on an option with choices' }] } } } } }],
    ['a context menu with a description', [{ type: 3, name: 'Report', description: 'Report it' }], { 0: { description: { _errors: [{ code: 'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION', message: 'Context menu commands cannot have a description' }] } } }],
    ['two commands of one name', [slash(), slash()], { 1: { name: { _errors: [{ code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: 'Application command names must be unique' }] } } }],
    ['101 slash commands', many(101, (i) => slash({ name: `c${i}` })), { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 100 or fewer commands of type 1.' }] }],
    ['a sub-command beside a plain option', [slash({ options: [{ type: 1, name: 'start', description: 'Start' }, opt('a')] })], { 0: { options: { _errors: [{ code: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', message: 'Sub-commands and sub-command groups cannot be mixed with other options' }] } } }],
  ])('refuses %s with 50035 and keeps the registered list', async (_, body, errors) => {
    const before = structuredClone(registeredCommands(fake.state));
    const res = await put(body);
    expect(res).toEqual({ status: 400, body: { message: 'Invalid Form Body', code: 50035, errors } });
    expect(registeredCommands(fake.state)).toEqual(before);
  });

  it('keeps the id of a command that stays and answers the list as GET does', async () => {
    const first = await put([slash(), { type: 2, name: 'Moderation history' }]);
    const second = await put([slash({ description: 'Your level' })]);
    expect((second.body as unknown as Array<{ id: string }>)[0]!.id).toBe((first.body as unknown as Array<{ id: string }>)[0]!.id);
    const listed = await fetch(`${fake.apiUrl}/v10/applications/${appId}/commands`, { headers: { Authorization: `Bot ${fake.token}` } }).then((r) => r.json());
    expect(listed).toEqual(second.body);
    expect(listed).toEqual([expect.objectContaining({ name: 'rank', description: 'Your level', type: 1, default_member_permissions: null, contexts: null, integration_types: [0] })]);
  });

  it("refuses another application's commands (10002) and a server the bot is not in (50001)", async () => {
    expect((await put([slash()], '/applications/1234567890123456789/commands')).body).toEqual({ message: 'Unknown Application', code: 10002 });
    expect((await put([slash()], `/applications/${appId}/guilds/1234567890123456789/commands`)).body).toEqual({ message: 'Missing Access', code: 50001 });
  });
});
