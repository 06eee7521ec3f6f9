import type { APIChannel } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTicketPanel } from '../../db/tickets/panels.js';
import { findTicket } from '../../db/tickets/tickets.js';
import { addMember, buttonPressPayload } from '../../process/infra/fakeDiscord/index.js';
import { createLogger } from '../../src/core/logger.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { ticketPanelButtonId } from '../../src/tickets/panelButtons.js';
import { cli } from '../admin/cli.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { startBotBedOnServer, type BotBed } from './botHarness.js';
import type { FakeServer } from './fakeServer.js';

// The ticket panel the service posts (Discord shows buttons only on the application's own messages): posted once by
// `tickets panel post`, edited in place by `tickets panel update`, posted again when someone deleted it; its button,
// pressed on the posted message, opens a ticket whose channel sits under the panel's category, seen by its staff roles.

const NOW = new Date('2026-11-29T12:00:00Z');
const VIEW_SEND_HISTORY = String((1n << 10n) | (1n << 11n) | (1n << 16n));
const database = useTestDatabase();
let bed: BotBed;
let s: FakeServer;

beforeAll(async () => {
  ({ bed, server: s } = await startBotBedOnServer(database, NOW, ['tickets']));
});
afterAll(() => bed?.close());

/** The operator CLI with PLATFORM=discord, a fresh adapter each run (so channels added to the fake are seen at once). */
const admin = (...argv: string[]) =>
  cli(() => database.db, bed.clock, {
    platform: createDiscordPlatform({ token: bed.fake.token, apiUrl: bed.fake.apiUrl, clock: bed.clock, logger: createLogger('silent', 'panel-test') }),
  })(...argv);

const guildChannel = (id: string) => bed.fake.state.guilds.get(s.id)!.channels.get(id) as (APIChannel & { parent_id: string | null; permission_overwrites: unknown[] }) | undefined;
const writesTo = (path: RegExp) => bed.fake.requests.filter((r) => r.method !== 'GET' && path.test(r.path));
const panelAudits = () => database.db.selectFrom('audit_log').select(['action', 'target_id', 'data']).where('guild_id', '=', s.id).where('action', '=', 'tickets.panel').execute();
const openButton = (panelId: number, label: string) => [{ type: 1, components: [{ type: 2, style: 1, custom_id: ticketPanelButtonId(panelId), label }] }];

describe('tickets panel post and update', () => {
  it('posts the panel once with its open button, edits it in place on update (same message, new content), and posts it again once deleted', async () => {
    const posted = await admin('tickets', 'panel', 'post', '--guild', s.id, '--panel', '1', '--channel', s.channels.general, '--title', 'Support', '--text', 'Press the button to talk to staff.', '--label', 'Open a ticket', '--json');
    expect(posted.stderr).toBe('');
    const first = posted.json();
    expect(first).toMatchObject({ panelId: 1, channelId: s.channels.general, outcome: 'posted', messageId: expect.stringMatching(/^\d+$/) });
    const message = bed.fake.state.messages.get(first.messageId)!;
    expect(message).toMatchObject({ channel_id: s.channels.general, author: { id: bed.fake.state.bot.id }, content: '**Support**\nPress the button to talk to staff.' });
    expect(message.components).toEqual(openButton(1, 'Open a ticket'));

    const updated = await admin('tickets', 'panel', 'update', '--guild', s.id, '--panel', '1', '--text', 'We answer within a day.', '--label', 'Get help', '--json');
    expect(updated.json()).toMatchObject({ outcome: 'edited', messageId: first.messageId, title: 'Support', text: 'We answer within a day.' });
    expect(bed.fake.state.messages.get(first.messageId)).toMatchObject({ content: '**Support**\nWe answer within a day.', components: openButton(1, 'Get help') });
    expect(writesTo(new RegExp(`^/channels/${s.channels.general}/messages`)).map((r) => r.method)).toEqual(['POST', 'PATCH']);

    bed.fake.state.messages.delete(first.messageId);
    const reposted = (await admin('tickets', 'panel', 'update', '--guild', s.id, '--panel', '1', '--json')).json();
    expect(reposted).toMatchObject({ outcome: 'reposted', messageId: expect.not.stringMatching(first.messageId) });
    expect(bed.fake.state.messages.get(reposted.messageId)).toMatchObject({ content: '**Support**\nWe answer within a day.', components: openButton(1, 'Get help') });
    expect(await findTicketPanel(database.db, s.id, 1)).toMatchObject({ posts: 2, message: { channelId: s.channels.general, messageId: reposted.messageId } });
    expect((await panelAudits()).map((a) => (a.data as { outcome: string }).outcome)).toEqual(['posted', 'edited', 'reposted']);
  });

  it("pressing the posted panel's button opens a ticket whose channel is under the panel's category, seen by the opener, the staff roles and the bot; tickets.opened names it", async () => {
    const category = snowflake();
    bed.fake.state.guilds.get(s.id)!.channels.set(category, { id: category, type: 4, name: 'Tickets', guild_id: s.id, parent_id: null, position: 5 } as unknown as APIChannel);
    const res = await admin('tickets', 'panel', 'post', '--guild', s.id, '--panel', '2', '--channel', s.channels.general, '--title', 'Billing', '--text', 'Help', '--label', 'Open', '--category', category, '--staff-roles', `${s.roles.staff},${s.roles.member}`, '--json');
    expect(res.stderr).toBe('');
    const opener = snowflake();
    addMember(bed.fake.state, bed.fake.state.guilds.get(s.id)!, { id: opener, username: 'olga' });

    const press = buttonPressPayload(bed.fake.state, { messageId: res.json().messageId, customId: ticketPanelButtonId(2), userId: opener, at: bed.clock.now() });
    await bed.dispatch('INTERACTION_CREATE', press);
    const [row] = await database.db.selectFrom('tickets').select(['ticket_no', 'channel_id']).where('guild_id', '=', s.id).where('user_id', '=', opener).execute();
    const channel = guildChannel(row!.channel_id!)!;
    expect(channel).toMatchObject({ name: `ticket-${row!.ticket_no}`, parent_id: category });
    expect(channel.permission_overwrites).toEqual([
      { id: s.id, type: 0, allow: '0', deny: String(1n << 10n) },
      { id: opener, type: 1, allow: VIEW_SEND_HISTORY, deny: '0' },
      { id: bed.fake.state.bot.id, type: 1, allow: VIEW_SEND_HISTORY, deny: '0' },
      { id: s.roles.staff, type: 0, allow: VIEW_SEND_HISTORY, deny: '0' },
      { id: s.roles.member, type: 0, allow: VIEW_SEND_HISTORY, deny: '0' },
    ]);
    expect((bed.answersTo(press.token)[0]!.body as { data: { content: string } }).data.content).toBe(
      `Ticket #${row!.ticket_no} is open in <#${channel.id}>. Staff will be with you shortly.`,
    );
    const events = await database.db.selectFrom('events').select('data').where('guild_id', '=', s.id).where('type', '=', 'tickets.opened').execute();
    expect(events.map((e) => e.data).filter((d) => (d as { userId: string }).userId === opener)).toEqual([
      { ticketNo: row!.ticket_no, userId: opener, panelId: 2, subject: null, source: 'panel', channelId: channel.id, isThread: false, openedAt: NOW.toISOString() },
    ]);
    expect(await findTicket(database.db, s.id, row!.ticket_no)).toMatchObject({ panelId: 2, panelTitle: 'Billing' });
  });

  it('moved to another channel: posted there, and the old message loses its button and points to the new one', async () => {
    const other = snowflake();
    bed.fake.state.guilds.get(s.id)!.channels.set(other, { id: other, type: 0, name: 'help', guild_id: s.id, parent_id: null, position: 6 } as unknown as APIChannel);
    const first = (await admin('tickets', 'panel', 'post', '--guild', s.id, '--panel', '3', '--channel', s.channels.general, '--text', 'Help', '--label', 'Open', '--json')).json();
    const moved = (await admin('tickets', 'panel', 'update', '--guild', s.id, '--panel', '3', '--channel', other, '--json')).json();
    expect(moved).toMatchObject({ outcome: 'moved', channelId: other });
    expect(bed.fake.state.messages.get(moved.messageId)).toMatchObject({ channel_id: other, content: 'Help', components: openButton(3, 'Open') });
    expect(bed.fake.state.messages.get(first.messageId)).toMatchObject({ content: `This panel moved to <#${other}>.`, components: [] });
  });
});

describe('tickets panel refusals change nothing', () => {
  const denySend = () => {
    const id = snowflake();
    const overwrites = [{ id: s.roles.botRole, type: 0, allow: '0', deny: String(1n << 11n) }];
    bed.fake.state.guilds.get(s.id)!.channels.set(id, { id, type: 0, name: 'read-only', guild_id: s.id, parent_id: null, position: 7, permission_overwrites: overwrites } as unknown as APIChannel);
    return id;
  };

  it.each([
    ['an unknown channel', () => ['--channel', snowflake()], 'UNKNOWN_CHANNEL', /is not a channel of server/],
    ['a category as the channel', () => ['--channel', s.channels.category], 'UNKNOWN_CHANNEL', /is a category channel; a panel goes in a text or announcement channel/],
    ['a text channel as the category', () => ['--channel', s.channels.general, '--category', s.channels.general], 'UNKNOWN_CATEGORY', /is not a category/],
    ['an unknown staff role', () => ['--channel', s.channels.general, '--staff-roles', snowflake()], 'UNKNOWN_ROLE', /is not a role of server/],
    ['the everyone role as staff', () => ['--channel', s.channels.general, '--staff-roles', s.id], 'UNKNOWN_ROLE', /every member would see every ticket/],
    ['a channel where the bot may not send', () => ['--channel', denySend()], 'BOT_MISSING_PERMISSIONS', /Missing Permissions \(50013\)/],
  ])('%s: %s, no panel stored, no message posted', async (_, place, code, message) => {
    const before = bed.fake.state.messages.size;
    const res = await admin('tickets', 'panel', 'post', '--guild', s.id, '--panel', '40', ...place(), '--text', 'Help', '--label', 'Open', '--json');
    expect(res.code).toBe(1);
    expect(res.error()).toEqual({ error: code, message: expect.stringMatching(message) });
    expect(await findTicketPanel(database.db, s.id, 40)).toBeUndefined();
    expect(bed.fake.state.messages.size).toBe(before);
    expect((await panelAudits()).filter((a) => a.target_id === '40')).toEqual([]);
  });

  it('an update of a panel never posted is PANEL_NOT_FOUND; a refused update leaves the posted message and the settings as they were', async () => {
    const never = await admin('tickets', 'panel', 'update', '--guild', s.id, '--panel', '41', '--text', 'x', '--json');
    expect(never.error()).toEqual({ error: 'PANEL_NOT_FOUND', message: `Ticket panel 41 was never posted in guild ${s.id}; post it first.` });

    const posted = (await admin('tickets', 'panel', 'post', '--guild', s.id, '--panel', '42', '--channel', s.channels.general, '--text', 'Help', '--label', 'Open', '--json')).json();
    const stored = await findTicketPanel(database.db, s.id, 42);
    const refused = await admin('tickets', 'panel', 'update', '--guild', s.id, '--panel', '42', '--text', 'New', '--staff-roles', snowflake(), '--json');
    expect(refused.error().error).toBe('UNKNOWN_ROLE');
    expect(await findTicketPanel(database.db, s.id, 42)).toEqual(stored);
    expect(bed.fake.state.messages.get(posted.messageId)).toMatchObject({ content: 'Help', edited_timestamp: null });
  });

  it('a label over 80 characters is refused before anything runs; Tickets off is FEATURE_DISABLED', async () => {
    const long = await admin('tickets', 'panel', 'post', '--guild', s.id, '--panel', '43', '--channel', s.channels.general, '--text', 'Help', '--label', 'x'.repeat(81), '--json');
    expect(long.code).toBe(2);
    expect(long.error()).toEqual({ error: 'INVALID_ARGUMENT', message: '--label must be 1 to 80 characters.' });
    await database.db.updateTable('guilds').set({ features: [] }).where('id', '=', s.id).execute();
    try {
      const off = await admin('tickets', 'panel', 'post', '--guild', s.id, '--panel', '43', '--channel', s.channels.general, '--text', 'Help', '--label', 'Open', '--json');
      expect(off.error()).toEqual({ error: 'FEATURE_DISABLED', message: `The Tickets feature is disabled in guild ${s.id}.` });
      expect(await findTicketPanel(database.db, s.id, 43)).toBeUndefined();
    } finally {
      await database.db.updateTable('guilds').set({ features: ['tickets'] }).where('id', '=', s.id).execute();
    }
  });
});
