import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { AppealAnswer } from '../../db/appeals/appeals.js';
import type { Database } from '../../db/schema.js';
import { fileAppeal } from '../../src/appeals/fileAppeal.js';
import type { AppealStatus } from '../../src/appeals/contract.js';
import { FEATURES, type Feature } from '../../src/core/features.js';
import type { Scope } from '../../src/core/scopes.js';
import { bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from './fixtures.js';
import type { TestResponse } from './httpClient.js';
import { countWrites } from './rows.js';
import type { TestApp } from './testApp.js';

// Appeals filed as the bot files them, and the requests and write checks of the appeal API tests.

const DAY_MS = 86_400_000;

export type Verb = 'approve' | 'reject';
export const VERBS: Verb[] = ['approve', 'reject'];
export const DECIDED: Record<Verb, 'approved' | 'rejected'> = { approve: 'approved', reject: 'rejected' };
export const CLOSED_STATUSES = ['approved', 'rejected', 'closed'] as const;

/** Files an appeal with its `appeals.submitted` event, in a transaction of its own. */
export function fileTestAppeal(
  db: Kysely<Database>,
  guildId: string,
  a: { userId: string; userTag?: string | null; banCaseNumber?: number | null; banReason?: string | null; answers?: AppealAnswer[]; at: Date },
) {
  return db.transaction().execute((trx) =>
    fileAppeal(trx, {
      guildId,
      userId: a.userId,
      userTag: a.userTag ?? null,
      banCaseNumber: a.banCaseNumber ?? null,
      banReason: a.banReason ?? null,
      answers: a.answers ?? [],
      at: a.at,
    }),
  );
}

export interface SeedOptions {
  status?: AppealStatus;
  userId?: string;
  userTag?: string | null;
  banCaseNumber?: number | null;
  banReason?: string | null;
  answers?: AppealAnswer[];
  at?: Date;
}

export const numbersOf = (res: TestResponse): number[] => res.body.items.map((a: { number: number }) => a.number);
export const desc = (numbers: number[]) => [...numbers].sort((a, b) => b - a);

/** The appeal API of `app`; seeded appeals are filed during the day before `now`, a second apart. */
export function appealRequests(db: () => Kysely<Database>, app: TestApp, now: Date) {
  async function setup(options: { features?: Feature[]; scopes?: Scope[] } = {}) {
    const guild = await createTestGuild(db(), { features: options.features ?? [...FEATURES] });
    const created = await createTestKey(db(), guild, { scopes: options.scopes ?? ['appeals:read', 'appeals:write'], name: 'appeals key' });
    return { guild, key: created.key, keyId: created.id };
  }

  let tick = 0;

  /** Files an appeal as the bot does (appeal row + `appeals.submitted`), then moves it to `status`. */
  async function seedAppeal(guild: TestGuild, options: SeedOptions = {}) {
    const userId = options.userId ?? snowflake();
    const at = options.at ?? new Date(now.getTime() - DAY_MS + ++tick * 1000);
    const { number } = await fileTestAppeal(db(), guild.id, { ...options, userId, at });
    const status = options.status ?? 'open';
    if (status !== 'open') {
      const decided = status === 'approved' || status === 'rejected' || status === 'closed';
      await db()
        .updateTable('appeals')
        .set({ status, ...(decided ? { decided_at: at, reason: `earlier ${status}` } : {}) })
        .where('guild_id', '=', guild.id)
        .where('number', '=', number)
        .execute();
    }
    return { number, userId, at };
  }

  async function seedMany(guild: TestGuild, statuses: AppealStatus[]) {
    const numbers: number[] = [];
    for (const status of statuses) numbers.push((await seedAppeal(guild, { status })).number);
    return numbers;
  }

  const list = (guild: TestGuild, key: string, query = '') => app.http('GET', `/guilds/${guild.id}/appeals${query ? `?${query}` : ''}`, { headers: bearer(key) });
  const getAppeal = (guild: TestGuild, key: string, number: number | string) =>
    app.http('GET', `/guilds/${guild.id}/appeals/${number}`, { headers: bearer(key) });
  const decide = (guild: TestGuild, key: string, number: number | string, verb: Verb, options: { body?: unknown; idempotencyKey?: string } = {}) =>
    app.http('POST', `/guilds/${guild.id}/appeals/${number}/${verb}`, {
      headers: { ...bearer(key), ...(options.idempotencyKey === undefined ? {} : { 'Idempotency-Key': options.idempotencyKey }) },
      body: options.body,
    });

  /** Everything a decision writes: the appeal rows, their conversation, events, audit rows, Idempotency-Key records. */
  async function snapshot(guildId: string) {
    const appeals = await db()
      .selectFrom('appeals')
      .select(['number', 'status', 'reason', 'decided_by', 'decided_at', 'decided_with_api_key_id', 'applying', 'failed_action', 'reappeal_after', 'last_activity_at'])
      .where('guild_id', '=', guildId)
      .orderBy('number')
      .execute();
    const messages = await db()
      .selectFrom('appeal_messages')
      .select(['id', 'appeal_number', 'author', 'author_id', 'text', 'internal'])
      .where('guild_id', '=', guildId)
      .orderBy('id')
      .execute();
    return { appeals, messages, writes: await countWrites(db(), guildId) };
  }

  /** Runs `act` (which asserts the refusal) and asserts that it changed nothing. */
  async function refused(guildId: string, act: () => Promise<void>) {
    const before = await snapshot(guildId);
    await act();
    expect(await snapshot(guildId)).toEqual(before);
  }

  const auditRows = (guildId: string) =>
    db().selectFrom('audit_log').selectAll().where('guild_id', '=', guildId).where('action', 'like', 'appeals.%').orderBy('id').execute();
  const staffMessages = (guildId: string, number: number) =>
    db()
      .selectFrom('appeal_messages')
      .select(['author', 'author_id', 'text', 'internal', 'created_at'])
      .where('guild_id', '=', guildId)
      .where('appeal_number', '=', number)
      .where('author', '=', 'staff')
      .where('internal', '=', false)
      .orderBy('id')
      .execute();


  /** Follows nextCursor from the first page to the end; the pages as returned. */
  async function allPages(guild: TestGuild, key: string, query: string) {
    const pages: Array<{ numbers: number[]; nextCursor: string | null }> = [];
    let before: string | null = null;
    do {
      const res = await list(guild, key, `${query}${before === null ? '' : `&before=${before}`}`);
      expect(res.status).toBe(200);
      pages.push({ numbers: numbersOf(res), nextCursor: res.body.nextCursor });
      before = res.body.nextCursor;
    } while (before !== null && pages.length < 100);
    return pages;
  }

  return { setup, seedAppeal, seedMany, list, getAppeal, decide, snapshot, refused, auditRows, staffMessages, allPages };
}
