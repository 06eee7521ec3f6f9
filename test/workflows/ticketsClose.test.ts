import { describe, expect, it } from 'vitest';
import { findClosedPlatformChannel } from '../../db/platform/channels.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { findTicket } from '../../db/tickets/tickets.js';
import { setTicketLogChannel } from '../../db/tickets/closes.js';
import { systemClock } from '../../src/core/clock.js';
import { relayUnstarted } from '../../src/core/temporal/operation.js';
import { closeTicketByApi } from '../../src/tickets/closeTicketByApi.js';
import { ticketCloseWorkflowId } from '../../src/tickets/ids.js';
import { ticketCloseOperation } from '../../src/tickets/ticketCloseOperation.js';
import { eventually } from '../harness/eventually.js';
import { bearer, createTestKey, snowflake, type TestGuild } from '../harness/fixtures.js';
import { createModerationGuild } from '../harness/moderationGuild.js';
import { ticketRequests } from '../harness/tickets.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

const { db, app, gateway } = useWorkflowTestBed();
const { open, message } = ticketRequests(db, app, new Date());

async function ticketsGuild() {
  const guild = await createModerationGuild(db());
  const { key } = await createTestKey(db(), guild, { scopes: ['tickets:read', 'tickets:write'], createdBy: guild.moderatorId });
  const log = snowflake();
  await upsertPlatformChannels(db(), guild.id, [{ channelId: log, name: 'ticket-logs', type: 'text', position: 0 }]);
  await setTicketLogChannel(db(), guild.id, log);
  return { guild, key, log };
}

const closeViaApi = (guild: TestGuild, key: string, ticketNo: number, body: unknown) =>
  app.http('POST', `/guilds/${guild.id}/tickets/${ticketNo}/close`, { headers: bearer(key), body });

/** The ticket once its close workflow finished (closeRequest back to null). */
async function applied(guild: TestGuild, key: string, ticketNo: number) {
  const res = await eventually(
    () => app.http('GET', `/guilds/${guild.id}/tickets/${ticketNo}`, { headers: bearer(key) }),
    (r) => r.body?.status === 'closed' && r.body?.closeRequest === null,
  );
  return res.body;
}

const messagesIn = (guildId: string, channelId: string) =>
  db().selectFrom('platform_messages').select('content').where('guild_id', '=', guildId).where('channel_id', '=', channelId).execute();

describe('ticket close through the API (workflow ticket-close)', () => {
  it('a channel ticket: log line, DM to the opener, channel deleted; closeRequest shows the close until done', async () => {
    const { guild, key, log } = await ticketsGuild();
    const opener = await guild.addMember();
    const channelId = snowflake();
    const { ticketNo } = await open(guild, { userId: opener, channelId, isThread: false, subject: 'Refund' });
    await message(guild, ticketNo, { authorId: opener, content: 'hello' });

    const res = await closeViaApi(guild, key, ticketNo, { reason: 'Refund sent.' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'closed', closedBy: null, closeType: 'manual', closeRequest: { reason: 'Refund sent.', viaApi: true } });

    expect(await applied(guild, key, ticketNo)).toMatchObject({ status: 'closed', closeReason: 'Refund sent.', hasTranscript: true, closeRequest: null });
    const row = await findTicket(db(), guild.id, ticketNo);
    expect(row).toMatchObject({ closeApplying: false, closeFailedActions: [] });
    expect(row!.closeWorkflowStartedAt).not.toBeNull();
    expect((await messagesIn(guild.id, log)).map((m) => m.content)).toEqual([
      `Ticket #${ticketNo} of <@${opener}> closed through the API (Refund sent.). Transcript saved.`,
    ]);
    const dms = await listPlatformDirectMessages(db(), guild.id, opener);
    expect(dms.map((d) => d.content)).toEqual([`Your ticket #${ticketNo} ("Refund") in Test Guild was closed. Reason: Refund sent.`]);
    expect(await findClosedPlatformChannel(db(), guild.id, channelId)).toMatchObject({ thread: false });
    const result = await gateway.client.workflow.getHandle(ticketCloseWorkflowId(guild.id, ticketNo)).result();
    expect(result).toEqual({ failedActions: [] });
  });

  it('a thread ticket is archived, not deleted; no log channel: no log line', async () => {
    const { guild, key, log } = await ticketsGuild();
    await setTicketLogChannel(db(), guild.id, null);
    const opener = await guild.addMember();
    const threadId = snowflake();
    const { ticketNo } = await open(guild, { userId: opener, channelId: threadId, isThread: true });

    expect((await closeViaApi(guild, key, ticketNo, {})).status).toBe(202);
    expect(await applied(guild, key, ticketNo)).toMatchObject({ closeReason: null, closeRequest: null });
    expect(await findClosedPlatformChannel(db(), guild.id, threadId)).toMatchObject({ thread: true });
    expect(await messagesIn(guild.id, log)).toEqual([]);
    expect(await listPlatformDirectMessages(db(), guild.id, opener)).toHaveLength(1);
  });

  it('a DM the opener refuses is recorded (DM_FAILED); the log line and the channel close still happen', async () => {
    const { guild, key, log } = await ticketsGuild();
    const opener = await guild.addMember();
    await db().updateTable('platform_members').set({ accepts_dms: false }).where('guild_id', '=', guild.id).where('user_id', '=', opener).execute();
    const channelId = snowflake();
    const { ticketNo } = await open(guild, { userId: opener, channelId });

    await closeViaApi(guild, key, ticketNo, { reason: 'Done.' });
    expect(await applied(guild, key, ticketNo)).toMatchObject({ status: 'closed', closeRequest: null });
    expect((await findTicket(db(), guild.id, ticketNo))!.closeFailedActions).toEqual([{ type: 'dm', error: 'DM_FAILED' }]);
    const result = await gateway.client.workflow.getHandle(ticketCloseWorkflowId(guild.id, ticketNo)).result();
    expect(result).toEqual({ failedActions: [{ type: 'dm', error: 'DM_FAILED' }] });
    expect(await listPlatformDirectMessages(db(), guild.id, opener)).toEqual([]);
    expect(await messagesIn(guild.id, log)).toHaveLength(1);
    expect(await findClosedPlatformChannel(db(), guild.id, channelId)).toMatchObject({ thread: false });
  });

  it('a channel already closed on the platform is a no-op, not a failure', async () => {
    const { guild, key } = await ticketsGuild();
    const opener = await guild.addMember();
    const channelId = snowflake();
    const { ticketNo } = await open(guild, { userId: opener, channelId });
    await db().insertInto('platform_closed_channels').values({ guild_id: guild.id, channel_id: channelId, thread: false, idempotency_key: 'by-hand' }).execute();

    await closeViaApi(guild, key, ticketNo, { reason: 'x' });
    expect(await applied(guild, key, ticketNo)).toMatchObject({ closeRequest: null });
    expect((await findTicket(db(), guild.id, ticketNo))!.closeFailedActions).toEqual([]);
    expect(await findClosedPlatformChannel(db(), guild.id, channelId)).toMatchObject({ idempotency_key: 'by-hand' });
  });

  it('the start relay applies a close whose workflow never started (crash after the commit), once', async () => {
    const { guild, key, log } = await ticketsGuild();
    const opener = await guild.addMember();
    const { ticketNo } = await open(guild, { userId: opener });
    // The close commits but nothing starts its workflow, as when the api dies right after its commit.
    await db()
      .transaction()
      .execute((trx) =>
        closeTicketByApi(trx, { guildId: guild.id, ticketNo, reason: 'late', actor: { type: 'system' }, requestId: 'crashed', at: new Date(Date.now() - 60_000) }),
      );
    const deps = { db: db(), temporal: gateway, clock: systemClock };
    expect(await relayUnstarted(deps, ticketCloseOperation)).toBeGreaterThanOrEqual(1);
    expect(await applied(guild, key, ticketNo)).toMatchObject({ closeReason: 'late', closeRequest: null });
    await relayUnstarted(deps, ticketCloseOperation);
    await gateway.client.workflow.getHandle(ticketCloseWorkflowId(guild.id, ticketNo)).result();
    expect(await messagesIn(guild.id, log)).toHaveLength(1);
    expect(await listPlatformDirectMessages(db(), guild.id, opener)).toHaveLength(1);
  });
});
