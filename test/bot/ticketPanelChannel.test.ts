import type { APIChannel } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTicket } from '../../db/tickets/tickets.js';
import { NO_CHANNEL_YET } from '../../process/bot/interactions/ticketPanel.js';
import { BOT_INVITE_PERMISSIONS, addGuild, serverError } from '../../process/infra/fakeDiscord/index.js';
import { ticketPanelButtonId } from '../../src/tickets/panelButtons.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { serverWithBot } from './fakeServer.js';
import { buttonPress, memberMessage } from './payloads.js';

// A ticket opened from a panel's button gets its own channel on Discord (hidden from everyone but the opener and the
// bot), stored on the ticket so the member's messages there reach its transcript; a channel Discord would not create
// is created by the member's next press.

const NOW = new Date('2026-11-25T12:00:00Z');
const VIEW_SEND_HISTORY = String((1n << 10n) | (1n << 11n) | (1n << 16n));
const database = useTestDatabase();
let bed: BotBed;
let guild: TestGuild;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  guild = await createTestGuild(database.db);
  addGuild(bed.fake.state, serverWithBot(bed.fake, guild, 'Tickets'));
});
afterAll(() => bed?.close());

/** A panel button press as Discord sends it in the server. */
const press = (panelId: number, userId: string) => buttonPress(bed.fake.state.bot.id, ticketPanelButtonId(panelId), userId, { guildId: guild.id });

async function pressPanel(panelId: number, userId: string): Promise<string> {
  const payload = press(panelId, userId);
  await bed.dispatch('INTERACTION_CREATE', payload);
  const answers = bed.answersTo(payload.token);
  expect(answers).toHaveLength(1);
  return (answers[0]!.body as { data: { content: string } }).data.content;
}

const ticketOf = async (userId: string) =>
  database.db.selectFrom('tickets').select(['ticket_no', 'channel_id', 'status']).where('guild_id', '=', guild.id).where('user_id', '=', userId).execute();
const openedEvents = async (userId: string) =>
  (await database.db.selectFrom('events').select('data').where('guild_id', '=', guild.id).where('type', '=', 'tickets.opened').execute())
    .map((e) => e.data as { userId: string })
    .filter((d) => d.userId === userId);
const channelsNamed = (name: string) =>
  [...bed.fake.state.guilds.get(guild.id)!.channels.values()].filter((c) => (c as { name?: string }).name === name) as Array<
    APIChannel & { parent_id: string | null; permission_overwrites: unknown[] }
  >;

describe('a ticket opened from a panel gets its channel', () => {
  it("creates the channel, visible to the opener and the bot only, stores it on the ticket and mentions it in the answer; the opener's message there reaches the transcript", async () => {
    const opener = snowflake();
    const answer = await pressPanel(11, opener);

    const [ticket] = await ticketOf(opener);
    expect(ticket).toMatchObject({ status: 'open', channel_id: expect.any(String) });
    const channels = channelsNamed(`ticket-${ticket!.ticket_no}`);
    expect(channels).toHaveLength(1);
    expect(channels[0]).toMatchObject({ id: ticket!.channel_id, type: 0, parent_id: null });
    expect(channels[0]!.permission_overwrites).toEqual(
      expect.arrayContaining([
        { id: guild.id, type: 0, allow: '0', deny: String(1n << 10n) },
        { id: opener, type: 1, allow: VIEW_SEND_HISTORY, deny: '0' },
        { id: bed.fake.state.bot.id, type: 1, allow: VIEW_SEND_HISTORY, deny: '0' },
      ]),
    );
    expect(channels[0]!.permission_overwrites).toHaveLength(3);
    expect(answer).toBe(`Ticket #${ticket!.ticket_no} is open in <#${ticket!.channel_id}>. Staff will be with you shortly.`);

    const message = memberMessage(guild.id, opener, new Date(NOW.getTime() + 1000), { channel_id: ticket!.channel_id, content: 'my order is lost' });
    await bed.dispatch('MESSAGE_CREATE', message);
    const stored = await database.db
      .selectFrom('ticket_messages')
      .select(['message_id', 'author_id', 'content'])
      .where('guild_id', '=', guild.id)
      .where('ticket_no', '=', ticket!.ticket_no)
      .execute();
    expect(stored).toEqual([{ message_id: message.id, author_id: opener, content: 'my order is lost' }]);
    expect(await findTicket(database.db, guild.id, ticket!.ticket_no)).toMatchObject({ userMessages: 1, channelId: ticket!.channel_id });

    // A second press names the ticket and its channel, and creates no other.
    expect(await pressPanel(11, opener)).toBe(`You already have ticket #${ticket!.ticket_no} open from this panel: <#${ticket!.channel_id}>.`);
    expect(channelsNamed(`ticket-${ticket!.ticket_no}`)).toHaveLength(1);
  });

  it('when Discord is down, the ticket stays open without a channel and the answer says so; the next press creates it, once', async () => {
    const opener = snowflake();
    bed.fake.fail({ method: 'POST', path: `/guilds/${guild.id}/channels`, answer: serverError(503) });
    const first = await pressPanel(12, opener);

    const [ticket] = await ticketOf(opener);
    expect(ticket).toEqual({ ticket_no: expect.any(Number), channel_id: null, status: 'open' });
    expect(first).toBe(`Ticket #${ticket!.ticket_no} is open, but ${NO_CHANNEL_YET}`);
    expect(channelsNamed(`ticket-${ticket!.ticket_no}`)).toEqual([]);
    // tickets.opened says "a ticket channel was created": none yet, so no event yet.
    expect(await openedEvents(opener)).toEqual([]);

    const second = await pressPanel(12, opener);
    const after = await ticketOf(opener);
    expect(after).toEqual([{ ticket_no: ticket!.ticket_no, channel_id: expect.any(String), status: 'open' }]);
    const channels = channelsNamed(`ticket-${ticket!.ticket_no}`);
    expect(channels.map((c) => c.id)).toEqual([after[0]!.channel_id]);
    expect(second).toBe(`You already have ticket #${ticket!.ticket_no} open from this panel: <#${after[0]!.channel_id}>.`);
    expect(await openedEvents(opener)).toEqual([expect.objectContaining({ ticketNo: ticket!.ticket_no, channelId: after[0]!.channel_id })]);

    expect(await pressPanel(12, opener)).toBe(second);
    expect(await openedEvents(opener)).toHaveLength(1);
    expect(channelsNamed(`ticket-${ticket!.ticket_no}`)).toHaveLength(1);
  });

  it('when Discord refuses it (the bot lacks Manage Channels), the ticket stays open without a channel and the answer says so; the refusal is not asked again within minutes', async () => {
    const other = await createTestGuild(database.db);
    const seed = serverWithBot(bed.fake, other, 'No Manage Channels');
    seed.roles[0]!.permissions = String(BigInt(BOT_INVITE_PERMISSIONS) & ~(1n << 4n));
    addGuild(bed.fake.state, seed);
    const opener = snowflake();
    const pressIn = async () => {
      const payload = buttonPress(bed.fake.state.bot.id, ticketPanelButtonId(14), opener, { guildId: other.id });
      await bed.dispatch('INTERACTION_CREATE', payload);
      return (bed.answersTo(payload.token)[0]!.body as { data: { content: string } }).data.content;
    };
    const invalidBefore = bed.fake.invalidRequests();

    const first = await pressIn();
    const [ticket] = await database.db.selectFrom('tickets').select(['ticket_no', 'channel_id', 'status']).where('guild_id', '=', other.id).execute();
    expect(ticket).toEqual({ ticket_no: expect.any(Number), channel_id: null, status: 'open' });
    expect(first).toBe(`Ticket #${ticket!.ticket_no} is open, but ${NO_CHANNEL_YET}`);
    expect(await pressIn()).toContain(`#${ticket!.ticket_no}`);
    // Discord answered 403 once; the second press was refused from memory, without a request.
    const creates = bed.fake.requests.filter((r) => r.method === 'POST' && r.path === `/guilds/${other.id}/channels`);
    expect(creates.map((r) => r.status)).toEqual([403]);
    expect(bed.fake.invalidRequests() - invalidBefore).toBe(1);
  });

  it("when Discord makes the channel but its answer is lost, the next press finds that channel instead of making a second", async () => {
    const opener = snowflake();
    bed.fake.fail({ method: 'POST', path: `/guilds/${guild.id}/channels`, dropAnswer: true });
    const first = await pressPanel(13, opener);
    const [ticket] = await ticketOf(opener);
    expect(ticket).toEqual({ ticket_no: expect.any(Number), channel_id: null, status: 'open' });
    expect(first).toBe(`Ticket #${ticket!.ticket_no} is open, but ${NO_CHANNEL_YET}`);
    const made = channelsNamed(`ticket-${ticket!.ticket_no}`);
    expect(made).toHaveLength(1);

    expect(await pressPanel(13, opener)).toBe(`You already have ticket #${ticket!.ticket_no} open from this panel: <#${made[0]!.id}>.`);
    expect(await ticketOf(opener)).toEqual([{ ticket_no: ticket!.ticket_no, channel_id: made[0]!.id, status: 'open' }]);
    expect(channelsNamed(`ticket-${ticket!.ticket_no}`)).toHaveLength(1);
  });
});
