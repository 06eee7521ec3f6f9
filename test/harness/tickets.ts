import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../db/schema.js';
import type { TicketMessageRecord } from '../../db/tickets/messages.js';
import type { CloseType, TicketAnswer, TicketMember, TicketSource } from '../../db/tickets/tickets.js';
import { FEATURES, type Feature } from '../../src/core/features.js';
import type { Scope } from '../../src/core/scopes.js';
import { addTicketMessage } from '../../src/tickets/addTicketMessage.js';
import { closeTicket } from '../../src/tickets/closeTicket.js';
import { openTicket } from '../../src/tickets/openTicket.js';
import { countWrites } from './rows.js';
import { bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from './fixtures.js';
import type { TestResponse } from './httpClient.js';
import type { TestApp } from './testApp.js';

// Tickets opened, written in and closed as the bot does (through the area's use cases), and the ticket API requests.

export interface TicketSeed {
  userId?: string;
  panel?: { id: number; title: string | null } | null;
  subject?: string | null;
  source?: TicketSource | null;
  isThread?: boolean;
  channelId?: string | null;
  answers?: TicketAnswer[];
  members?: TicketMember[];
  at?: Date;
}

/** Message ids that sort as numbers in the order they are made (like snowflakes). */
let messageCounter = 0n;
export const nextMessageId = () => String(1_300_000_000_000_000_000n + ++messageCounter * 1000n);

export const ticketNosOf = (res: TestResponse): number[] => res.body.items.map((t: { ticketNo: number }) => t.ticketNo);

export function ticketRequests(db: () => Kysely<Database>, app: TestApp, now: Date) {
  async function setup(options: { features?: Feature[]; scopes?: Scope[] } = {}) {
    const guild = await createTestGuild(db(), { features: options.features ?? [...FEATURES] });
    const created = await createTestKey(db(), guild, { scopes: options.scopes ?? ['tickets:read', 'tickets:write'], name: 'tickets key' });
    return { guild, key: created.key, keyId: created.id };
  }

  let tick = 0;
  const nextAt = () => new Date(now.getTime() - 86_400_000 + ++tick * 1000);

  async function open(guild: TestGuild, s: TicketSeed = {}) {
    const userId = s.userId ?? snowflake();
    const at = s.at ?? nextAt();
    const { ticketNo, events } = await db()
      .transaction()
      .execute((trx) =>
        openTicket(trx, {
          guildId: guild.id,
          userId,
          panel: s.panel === undefined ? { id: 1, title: 'Support' } : s.panel,
          subject: s.subject === undefined ? 'Help' : s.subject,
          source: s.source === undefined ? 'panel' : s.source,
          isThread: s.isThread ?? false,
          channelId: s.channelId === undefined ? snowflake() : s.channelId,
          answers: s.answers ?? [],
          members: s.members,
          at,
          actor: { type: 'system' },
        }),
      );
    return { ticketNo, userId, at, events };
  }

  function message(guild: TestGuild, ticketNo: number, m: Partial<TicketMessageRecord> & { authorId: string | null }) {
    const record: TicketMessageRecord = {
      id: m.id ?? nextMessageId(),
      authorId: m.authorId,
      content: m.content ?? 'hello',
      createdAt: m.createdAt ?? nextAt(),
      editedAt: m.editedAt ?? null,
      system: m.system ?? false,
      replyTo: m.replyTo ?? null,
      embeds: m.embeds ?? [],
      attachments: m.attachments ?? [],
      stickers: m.stickers ?? [],
    };
    return db()
      .transaction()
      .execute(async (trx) => ({ record, ...(await addTicketMessage(trx, { guildId: guild.id, ticketNo, message: record })) }));
  }

  function close(guild: TestGuild, ticketNo: number, c: { closedBy?: string | null; closeType?: CloseType; reason?: string | null; messageContent?: boolean; at?: Date } = {}) {
    return db()
      .transaction()
      .execute((trx) =>
        closeTicket(trx, {
          guildId: guild.id,
          ticketNo,
          closedBy: c.closedBy === undefined ? snowflake() : c.closedBy,
          closeType: c.closeType ?? 'manual',
          reason: c.reason === undefined ? 'resolved' : c.reason,
          messageContent: c.messageContent ?? true,
          at: c.at ?? nextAt(),
          actor: { type: 'system' },
        }),
      );
  }

  /** Moves an open ticket to `pending` (the bot's waiting-for-the-user state). */
  const markPending = (guild: TestGuild, ticketNo: number) =>
    db().updateTable('tickets').set({ status: 'pending' }).where('guild_id', '=', guild.id).where('ticket_no', '=', ticketNo).execute();

  const list = (guild: TestGuild, key: string, query = '') => app.http('GET', `/guilds/${guild.id}/tickets${query ? `?${query}` : ''}`, { headers: bearer(key) });
  const getTicket = (guild: TestGuild, key: string, ticketNo: number | string) => app.http('GET', `/guilds/${guild.id}/tickets/${ticketNo}`, { headers: bearer(key) });
  const transcript = (guild: TestGuild, key: string, ticketNo: number | string, query = '') =>
    app.http('GET', `/guilds/${guild.id}/tickets/${ticketNo}/transcript${query ? `?${query}` : ''}`, { headers: bearer(key) });

  const closeViaApi = (guild: TestGuild, key: string, ticketNo: number | string, body: unknown, idempotencyKey?: string) =>
    app.http('POST', `/guilds/${guild.id}/tickets/${ticketNo}/close`, {
      headers: { ...bearer(key), ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }) },
      body,
    });

  /** Everything a close writes: the tickets, events, audit rows, Idempotency-Key records. */
  async function snapshot(guildId: string) {
    // close_workflow_started_at is left out: the start after the response sets it whenever it gets there.
    const tickets = await db()
      .selectFrom('tickets')
      .selectAll()
      .select((eb) => eb.val(null).as('close_workflow_started_at'))
      .where('guild_id', '=', guildId)
      .orderBy('ticket_no')
      .execute();
    return { tickets, writes: await countWrites(db(), guildId) };
  }

  /** Runs `act` (which asserts the refusal) and asserts that it changed nothing. */
  async function refused(guildId: string, act: () => Promise<void>) {
    const before = await snapshot(guildId);
    await act();
    expect(await snapshot(guildId)).toEqual(before);
  }

  const auditRows = (guildId: string) =>
    db().selectFrom('audit_log').selectAll().where('guild_id', '=', guildId).where('action', 'like', 'tickets.%').orderBy('id').execute();

  return { setup, open, message, close, markPending, list, getTicket, transcript, closeViaApi, snapshot, refused, auditRows };
}

/** A tickets:read key of an existing guild (the demo guild), created by `createdBy`. */
export async function createKeyForGuild(db: Kysely<Database>, guildId: string, createdBy: string): Promise<string> {
  const created = await createTestKey(db, { id: guildId, ownerId: createdBy, botUserId: '' }, { scopes: ['tickets:read'] });
  return created.key;
}
