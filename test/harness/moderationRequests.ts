import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { insertCase, type NewCase } from '../../db/moderation/cases.js';
import type { Database } from '../../db/schema.js';
import { bearer } from './fixtures.js';
import type { ModerationGuild } from './moderationGuild.js';
import { countWrites } from './rows.js';
import type { TestApp } from './testApp.js';

// Requests and write checks shared by the moderation API tests (test/api/moderation*.test.ts).

export type Action = 'warn' | 'timeout' | 'untimeout' | 'kick' | 'ban' | 'unban';
export const ACTIONS: Action[] = ['warn', 'timeout', 'untimeout', 'kick', 'ban', 'unban'];
export const MEMBER_ACTIONS: Action[] = ['warn', 'timeout', 'untimeout', 'kick'];
/** The smallest body each action accepts. */
export const VALID_BODY: Record<Action, unknown> = {
  warn: { reason: 'spam' },
  timeout: { durationSeconds: 60 },
  untimeout: undefined,
  kick: undefined,
  ban: undefined,
  unban: undefined,
};

export const issuesAt = (location: string, ...paths: string[]) => paths.map((path) => ({ location, path, message: expect.any(String) }));

interface Seed {
  action: NewCase['action'];
  userId: string;
  moderatorId: string;
  source: NewCase['source'];
  active: boolean;
  deleted?: boolean;
}
export interface Seeded extends Seed {
  number: number;
}

/** Seeded cases are made a minute apart from here. */
export const CASE_EPOCH = Date.parse('2026-11-01T00:00:00Z');

/** The visible case numbers that `keep` accepts, newest first. */
export const expected = (seeded: Seeded[], keep: (s: Seeded) => boolean = () => true) =>
  seeded
    .filter((s) => !s.deleted && keep(s))
    .map((s) => s.number)
    .reverse();

export const numbers = (body: { items: Array<{ number: number }> }) => body.items.map((c) => c.number);

export function moderationRequests(db: () => Kysely<Database>, app: TestApp) {
  const post = (g: ModerationGuild, action: string, userId: string, body?: unknown, headers: Record<string, string> = {}, key = g.key) =>
    app.http('POST', `/guilds/${g.id}/moderation/users/${userId}/${action}`, { headers: { ...bearer(key), ...headers }, body });

  const get = (g: ModerationGuild, path: string, key = g.key) => app.http('GET', `/guilds/${g.id}/moderation${path}`, { headers: bearer(key) });

  /** Every row a moderation request could write: actions, cases and their timeline, events, audit, Idempotency-Key records. */
  async function writes(guildId: string) {
    const count = async (table: 'moderation_actions' | 'moderation_cases' | 'moderation_case_events') => {
      const row = await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('guild_id', '=', guildId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const { events, audit, idempotency } = await countWrites(db(), guildId);
    return {
      actions: await count('moderation_actions'),
      cases: await count('moderation_cases'),
      caseEvents: await count('moderation_case_events'),
      events,
      audit,
      idempotency,
    };
  }

  /** Runs a request that must be refused, on a server without actions, and checks that it wrote nothing. */
  async function refused<T>(guildId: string, send: () => Promise<T>): Promise<T> {
    const before = await writes(guildId);
    const res = await send();
    expect(await writes(guildId)).toEqual(before);
    expect(before.actions).toBe(0);
    return res;
  }

  /** Like `refused`, for a server that already has actions. */
  async function refusedAfter<T>(g: ModerationGuild, send: () => Promise<T>): Promise<T> {
    const before = await writes(g.id);
    const res = await send();
    expect(await writes(g.id)).toEqual(before);
    return res;
  }

  async function seedCases(guildId: string, seeds: Seed[]): Promise<Seeded[]> {
    const out: Seeded[] = [];
    for (const s of seeds) {
      const { number } = await insertCase(db(), {
        guildId,
        action: s.action,
        userId: s.userId,
        userTag: null,
        moderatorId: s.moderatorId,
        reason: `case of ${s.action}`,
        durationSeconds: null,
        evidence: [],
        source: s.source,
        active: s.active,
        expiresAt: null,
        dmStatus: null,
        apiKey: null,
        operationId: null,
        createdAt: new Date(CASE_EPOCH + out.length * 60_000),
      });
      if (s.deleted) await markDeleted(guildId, number);
      out.push({ ...s, number });
    }
    return out;
  }

  const markDeleted = (guildId: string, number: number) =>
    db().updateTable('moderation_cases').set({ deleted_at: new Date(CASE_EPOCH) }).where('guild_id', '=', guildId).where('number', '=', number).execute();

  return { post, get, writes, refused, refusedAfter, seedCases, markDeleted };
}
