import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTicket } from '../../db/tickets/tickets.js';
import { openTicket } from '../../src/tickets/openTicket.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { memberMessage } from './payloads.js';

// MESSAGE_CREATE in a ticket's channel: stored for the transcript and counted for the user's or the staff's side,
// as `simulate ticket-message` does; messages elsewhere, or in a closed ticket, are not stored.

const NOW = new Date('2026-11-25T12:00:00Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const database = useTestDatabase();
let bed: BotBed;
let guild: TestGuild;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  guild = await createTestGuild(database.db);
});
afterAll(() => bed?.close());

async function open(userId: string, channelId: string) {
  const { ticketNo } = await database.db.transaction().execute((trx) =>
    openTicket(trx, { guildId: guild.id, userId, panel: null, subject: 'Help', source: 'panel', isThread: false, channelId, answers: [], at: NOW, actor: { type: 'system' } }),
  );
  return ticketNo;
}
const stored = (ticketNo: number) =>
  database.db
    .selectFrom('ticket_messages')
    .select(['message_id', 'author_id', 'content', 'system', 'created_at'])
    .where('guild_id', '=', guild.id)
    .where('ticket_no', '=', ticketNo)
    .orderBy('created_at')
    .execute();

describe('MESSAGE_CREATE in a ticket', () => {
  it('stores each message once for the transcript and counts the opener, staff and bots on their sides', async () => {
    const [opener, staff, channel] = [snowflake(), snowflake(), snowflake()];
    const ticketNo = await open(opener, channel);
    const first = memberMessage(guild.id, opener, later(1), { channel_id: channel, content: 'my order is lost' });
    const welcome = memberMessage(guild.id, snowflake(), later(2), { channel_id: channel, content: 'Staff will be with you shortly' }, { bot: true });
    const answer = memberMessage(guild.id, staff, later(3), { channel_id: channel, content: 'looking into it', message_reference: { message_id: first.id } });
    for (const m of [first, welcome, answer, first]) await bed.dispatch('MESSAGE_CREATE', m);
    await bed.dispatch('MESSAGE_CREATE', memberMessage(guild.id, opener, later(4), { content: 'elsewhere' }));

    expect(await stored(ticketNo)).toEqual([
      { message_id: first.id, author_id: opener, content: 'my order is lost', system: false, created_at: later(1) },
      { message_id: welcome.id, author_id: welcome.author.id, content: 'Staff will be with you shortly', system: true, created_at: later(2) },
      { message_id: answer.id, author_id: staff, content: 'looking into it', system: false, created_at: later(3) },
    ]);
    expect(await findTicket(database.db, guild.id, ticketNo)).toMatchObject({
      userMessages: 1,
      staffMessages: 1,
      lastMessageAt: later(3),
      firstResponseAt: later(3),
      firstResponseBy: staff,
    });
  });

  it('stores nothing for a closed ticket', async () => {
    const [opener, channel] = [snowflake(), snowflake()];
    const ticketNo = await open(opener, channel);
    await database.db.updateTable('tickets').set({ status: 'closed' }).where('guild_id', '=', guild.id).where('ticket_no', '=', ticketNo).execute();
    await bed.dispatch('MESSAGE_CREATE', memberMessage(guild.id, opener, later(5), { channel_id: channel }));
    expect(await stored(ticketNo)).toEqual([]);
  });
});
