import { afterAll, describe, expect, it } from 'vitest';
import { finishModAction } from '../../db/moderation/actions.js';
import { addMember, serverError, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { requestModAction } from '../../src/moderation/requestModAction.js';
import { discordPlatformOn } from '../harness/discordGuild.js';
import { snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { featureOff } from './ticketBed.js';
import { moderationConsole } from './moderationBed.js';

// Moderation actions the dashboard refuses or cannot finish, on the fake Discord (moderationBed.ts): each bad input
// or refusal keeps the form with the API's code and changes nothing.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform }, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const { signedIn, state, finished } = moderationConsole(db, app, fake);

describe('moderation actions refused in the dashboard', () => {
  it.each([
    ['a member above the manager', 'kick', 'above', 409, 'HIERARCHY_HIGHER', 'mod-member', "This member's highest role is not below both yours and the bot's, or they own the server."],
    ['the owner', 'ban', 'owner', 409, 'HIERARCHY_HIGHER', 'mod-member', "This member's highest role is not below both yours and the bot's, or they own the server."],
    ['the manager themselves', 'warn', 'self', 409, 'INVALID_TARGET', 'mod-member', 'This action cannot be taken on yourself or on the bot.'],
    ['a user who is not a member', 'kick', 'stranger', 404, 'MEMBER_NOT_FOUND', 'mod-member', 'This user is not a member of the server.'],
    ['a user who is not banned', 'unban', 'member', 409, 'NOT_BANNED', 'mod-member', 'This user is not banned.'],
  ])('refuses %s on the form with the API’s code (%s → %s %s), nothing sent to Discord or stored', async (_, action, who, status, code, field, message) => {
    const { g, managerId, client, actions } = await signedIn();
    const above = snowflake();
    addMember(fake.state, fake.state.guilds.get(g.id)!, { id: above, username: 'peer', roles: [g.roles.admin] });
    const target = { above, owner: g.ownerId, self: managerId, stranger: snowflake(), member: g.addMember() }[who]!;
    await client.get(`${actions}/new`);
    const before = await state(g.id, target);
    const fields = { 'mod-action': action, 'mod-member': target, 'mod-reason': 'x' };
    // A kick or ban is refused already on its way to the confirmation; every one is refused when confirmed.
    for (const sent of [fields, { ...fields, 'mod-confirmed': 'yes' }]) {
      const res = await client.post(actions, sent);
      expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([status, code]);
      expect(fieldErrorOf(res.text, field)).toBe(message);
      expect(res.text).toContain(`value="${target}"`);
    }
    expect(await state(g.id, target)).toEqual(before);
  });

  it.each([
    ['no action', { 'mod-reason': 'x' }, 'mod-action', 'Choose an action: warn, timeout, untimeout, kick, ban, unban.'],
    ['an unknown action', { 'mod-action': 'softban' }, 'mod-action', 'Choose an action: warn, timeout, untimeout, kick, ban, unban.'],
    ['no member', { 'mod-action': 'kick', 'mod-member': '' }, 'mod-member', 'Pick a member: search by name and choose one, or give their user id (17 to 20 digits).'],
    ['a name instead of an id', { 'mod-action': 'kick', 'mod-member': 'someone' }, 'mod-member', 'Pick a member: search by name and choose one, or give their user id (17 to 20 digits).'],
    ['a name in the by-id input', { 'mod-action': 'kick', 'mod-member-id': 'someone' }, 'mod-member-id', 'Pick a member: search by name and choose one, or give their user id (17 to 20 digits).'],
    ['a warning without a reason', { 'mod-action': 'warn' }, 'mod-reason', 'Give a reason of 1 to 500 characters, without the character U+0000: the member is told it.'],
    ['a reason of 501 characters', { 'mod-action': 'kick', 'mod-reason': 'x'.repeat(501) }, 'mod-reason', 'Give a reason of up to 500 characters, without the character U+0000.'],
    ['a reason with U+0000', { 'mod-action': 'kick', 'mod-reason': 'a\u0000b' }, 'mod-reason', 'Give a reason of up to 500 characters, without the character U+0000.'],
    ['a timeout without a duration', { 'mod-action': 'timeout' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a timeout of 29 days', { 'mod-action': 'timeout', 'mod-duration': '29', 'mod-duration-unit': 'days' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a timeout of 0 minutes', { 'mod-action': 'timeout', 'mod-duration': '0' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a duration that is no number', { 'mod-action': 'timeout', 'mod-duration': '1.5' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a duration in weeks', { 'mod-action': 'timeout', 'mod-duration': '1', 'mod-duration-unit': 'weeks' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a tempban of 366 days', { 'mod-action': 'ban', 'mod-duration': '366', 'mod-duration-unit': 'days' }, 'mod-duration', 'A temporary ban lasts 1 minute to 365 days; leave the duration empty for a permanent ban.'],
    ['8 days of deleted messages', { 'mod-action': 'ban', 'mod-delete': '691200' }, 'mod-delete', 'Choose how far back to delete messages: none, 1 hour, 6 hours, 1 day, 3 days or 7 days.'],
    ['six evidence links', { 'mod-action': 'kick', 'mod-evidence': Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join('\n') }, 'mod-evidence', 'Give up to 5 links, one per line, each an http(s) address of up to 500 characters.'],
    ['evidence that is no link', { 'mod-action': 'kick', 'mod-evidence': 'see the screenshot' }, 'mod-evidence', 'Give up to 5 links, one per line, each an http(s) address of up to 500 characters.'],
  ] as Array<[string, Record<string, string>, string, string]>)('keeps %s on the form (400 INVALID_INPUT, the field named) and changes nothing', async (_, fields, field, message) => {
    const { g, client, actions } = await signedIn();
    const target = g.addMember();
    await client.get(`${actions}/new`);
    const before = await state(g.id, target);
    for (const confirmed of [{}, { 'mod-confirmed': 'yes' }] as Array<Record<string, string>>) {
      const res = await client.post(actions, { 'mod-member': target, ...fields, ...confirmed });
      expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([400, 'INVALID_INPUT']);
      expect(fieldErrorOf(res.text, field)).toBe(message);
    }
    expect(await state(g.id, target)).toEqual(before);
  });

  it.each([
    ['an empty query', '   ', "Type the start of a member's name: 1 to 32 characters."],
    ['a query of 33 characters', 'x'.repeat(33), 'Names are at most 32 characters: type the start of one.'],
  ])('refuses a member search with %s (400 INVALID_INPUT on the search field), asking Discord nothing and keeping the form', async (_, query, message) => {
    const { g, client, actions } = await signedIn();
    const searches = () => fake.requests.filter((r) => r.path === `/guilds/${g.id}/members/search`).length;
    const before = searches();
    const res = await client.get(`${actions}/new?mod-action=warn&mod-reason=spam&mod-member-q=${encodeURIComponent(query)}`);
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, 'mod-member-q')).toBe(message);
    expect(res.text).toContain('value="warn" checked');
    expect(res.text).toContain('>spam</textarea>');
    expect(searches()).toBe(before);
  });

  it('says when no member matches, answers 503 with Retry-After when Discord fails the search, and unbans a departed user by id', async () => {
    const { g, managerId, client, actions } = await signedIn();
    const none = await client.get(`${actions}/new?mod-member-q=zz-nobody`);
    expect(none.status).toBe(200);
    expect(none.text).toContain("No member's name starts with “zz-nobody”. Someone who left the server can be given by user id below.");

    fake.fail({ method: 'GET', path: `/guilds/${g.id}/members/search`, answer: serverError(502), times: 3 });
    const down = await client.get(`${actions}/new?mod-action=unban&mod-member-q=user`);
    expect([down.status, down.headers['retry-after'], /data-error="([A-Z_]+)"/.exec(down.text)?.[1]]).toEqual([503, '5', 'PLATFORM_UNAVAILABLE']);
    expect(fieldErrorOf(down.text, 'mod-member-q')).toBe('Discord did not answer the search. Try again in a moment; the form keeps what you entered.');
    expect(down.text).toContain('value="unban" checked');

    // Someone banned is no member: the search cannot find them, the by-id input takes them.
    const banned = snowflake();
    fake.state.users.set(banned, { id: banned, username: 'gone', discriminator: '0', global_name: null, avatar: null });
    fake.state.guilds.get(g.id)!.bans.set(banned, { user: fake.state.users.get(banned)!, reason: 'old' });
    const res = await client.post(actions, { 'mod-action': 'unban', 'mod-member-id': banned, 'mod-reason': 'served' });
    expect(res.status).toBe(303);
    expect((await finished(client, res.headers.location!)).text).toContain('data-status="done"');
    expect(fake.state.guilds.get(g.id)!.bans.has(banned)).toBe(false);
    const audit = await db().selectFrom('audit_log').select(['actor_id', 'target_id']).where('guild_id', '=', g.id).where('action', '=', 'moderation.unban').execute();
    expect(audit).toEqual([{ actor_id: managerId, target_id: banned }]);
  });

  it("shows a refused action's code, and only the console's own actions of this server", async () => {
    const { g, managerId, client, actions } = await signedIn();
    const target = g.addMember();
    const asked = { guildId: g.id, userId: target, action: 'kick' as const, request: {}, requestedAt: new Date() };
    const refused = await requestModAction(db(), { ...asked, by: { moderatorId: managerId, via: 'console' } });
    await finishModAction(db(), refused.actionId, { status: 'failed', error: 'HIERARCHY_HIGHER' }, new Date());
    const page = await client.get(`${actions}/${refused.actionId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-status="failed"');
    expect(page.text).toContain(`<dd data-error="HIERARCHY_HIGHER">This member's highest role is not below both yours and the bot's, or they own the server.`);
    const viaApi = await requestModAction(db(), { ...asked, by: { apiKeyId: g.keyId } });
    const other = await signedIn();
    for (const [client_, id] of [[client, viaApi.actionId], [other.client, refused.actionId]] as const) {
      const res = await client_.get(`/console/servers/${client_ === client ? g.id : other.g.id}/moderation/actions/${id}`);
      expect([res.status, errorCodeOf(res)]).toEqual([404, 'ACTION_NOT_FOUND']);
    }
    const malformed = await client.get(`${actions}/not-an-id`);
    expect([malformed.status, errorCodeOf(malformed)]).toEqual([404, 'PAGE_NOT_FOUND']);
  });

  it('refuses the action of a manager whose role was taken since the form was shown 403 NOT_A_SERVER_MANAGER, changing nothing', async () => {
    const { g, managerId, client, actions } = await signedIn();
    const target = g.addMember();
    await client.get(`${actions}/new`);
    fake.state.guilds.get(g.id)!.members.get(managerId)!.roles = [];
    const before = await state(g.id, target);
    for (const action of ['warn', 'ban']) {
      const res = await client.post(actions, { 'mod-action': action, 'mod-member': target, 'mod-reason': 'x' });
      expect([action, res.status, errorCodeOf(res)]).toEqual([action, 403, 'NOT_A_SERVER_MANAGER']);
    }
    expect(await state(g.id, target)).toEqual(before);
  });

  it('shows the FeatureOff page while Moderation is off and refuses its actions 409 FEATURE_DISABLED, changing nothing', async () => {
    const { g, client, path, actions } = await signedIn();
    const target = g.addMember();
    await client.get(`${actions}/new`);
    await featureOff(db(), g.id, 'moderation');
    expect((await client.get(path)).text).toContain('data-feature-off="moderation"');
    const before = await state(g.id, target);
    for (const page of [`${actions}/new`, `${path}/cases/1`]) expect(errorCodeOf(await client.get(page))).toBe('FEATURE_DISABLED');
    const res = await client.post(actions, { 'mod-action': 'warn', 'mod-member': target, 'mod-reason': 'x' });
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await state(g.id, target)).toEqual(before);
  });
});
