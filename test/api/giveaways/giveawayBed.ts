import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { upsertPlatformChannels, upsertPlatformMember, upsertPlatformRoles } from '../../../db/platform/local.js';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../../src/core/clock.js';
import { FEATURES, type Feature } from '../../../src/core/features.js';
import type { Scope } from '../../../src/core/scopes.js';
import { cancelGiveaway } from '../../../src/giveaways/cancelGiveaway.js';
import { enterGiveaway } from '../../../src/giveaways/enterGiveaway.js';
import { leaveGiveaway } from '../../../src/giveaways/leaveGiveaway.js';
import { createLocalPlatform } from '../../../src/platform/localPlatform.js';
import { bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';
import type { TestApp } from '../../harness/testApp.js';

// Giveaway servers, bot-side entries through the area's use cases, and the giveaway API requests.

/** A user id whose account is `daysOld` days old at `now` (snowflakes carry their creation time). */
export const userIdAged = (now: Date, daysOld: number, seq = 0) =>
  String(((BigInt(Math.round(now.getTime() - daysOld * 86_400_000)) - 1_420_070_400_000n) << 22n) + BigInt(seq));

export interface GiveawayGuild extends TestGuild {
  key: string;
  keyId: number;
  channelId: string;
  announcementId: string;
  voiceId: string;
  roles: { vip: string; booster: string; muted: string; member: string };
  addMember(options?: { roleIds?: string[]; userId?: string; joinedAt?: Date; bot?: boolean }): Promise<string>;
}

/**
 * Giveaway helpers on one clock: the test bed's (a fixed clock, or the system clock where workflows run on real
 * time). Every helper that needs a time defaults to it, never to the wall clock, so a test bed's fixed `NOW`
 * holds for entries, leaves and cancellations as it does for the API.
 */
export function giveawayRequests(db: () => Kysely<Database>, app: TestApp, clock: Clock) {
  async function setup(options: { features?: Feature[]; scopes?: Scope[] } = {}): Promise<GiveawayGuild> {
    const guild = await createTestGuild(db(), { features: options.features ?? [...FEATURES] });
    const created = await createTestKey(db(), guild, { scopes: options.scopes ?? ['giveaways:read', 'giveaways:write'], name: 'giveaways key' });
    const [channelId, announcementId, voiceId] = [snowflake(), snowflake(), snowflake()];
    await upsertPlatformChannels(db(), guild.id, [
      { channelId, name: 'giveaways', type: 'text', position: 0 },
      { channelId: announcementId, name: 'news', type: 'announcement', position: 1 },
      { channelId: voiceId, name: 'Lounge', type: 'voice', position: 2 },
    ]);
    const roles = { vip: snowflake(), booster: snowflake(), muted: snowflake(), member: snowflake() };
    await upsertPlatformRoles(db(), guild.id, [
      { roleId: guild.id, name: '@everyone', position: 0 },
      { roleId: roles.vip, name: 'VIP', position: 4 },
      { roleId: roles.booster, name: 'Booster', position: 3 },
      { roleId: roles.muted, name: 'Muted', position: 2 },
      { roleId: roles.member, name: 'Member', position: 1 },
    ]);
    const now = clock.now();
    let seq = 0;
    const addMember: GiveawayGuild['addMember'] = async (o = {}) => {
      const userId = o.userId ?? userIdAged(now, 400, ++seq);
      await upsertPlatformMember(db(), {
        guildId: guild.id,
        userId,
        username: `user${seq}`,
        bot: o.bot ?? false,
        roleIds: o.roleIds ?? [roles.member],
        joinedAt: o.joinedAt ?? new Date(now.getTime() - 100 * 86_400_000),
      });
      return userId;
    };
    return { ...guild, key: created.key, keyId: created.id, channelId, announcementId, voiceId, roles, addMember };
  }

  const start = (g: GiveawayGuild, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.http('POST', `/guilds/${g.id}/giveaways`, {
      headers: { ...bearer(g.key), ...headers },
      body: { channelId: g.channelId, prize: 'Nitro', durationSeconds: 3600, ...body },
    });
  const list = (g: GiveawayGuild, query = '') => app.http('GET', `/guilds/${g.id}/giveaways${query ? `?${query}` : ''}`, { headers: bearer(g.key) });
  const get = (g: GiveawayGuild, id: number | string) => app.http('GET', `/guilds/${g.id}/giveaways/${id}`, { headers: bearer(g.key) });
  const entries = (g: GiveawayGuild, id: number | string, query = '') =>
    app.http('GET', `/guilds/${g.id}/giveaways/${id}/entries${query ? `?${query}` : ''}`, { headers: bearer(g.key) });
  const end = (g: GiveawayGuild, id: number | string) => app.http('POST', `/guilds/${g.id}/giveaways/${id}/end`, { headers: bearer(g.key) });
  const reroll = (g: GiveawayGuild, id: number | string, body: unknown, headers: Record<string, string> = {}) =>
    app.http('POST', `/guilds/${g.id}/giveaways/${id}/reroll`, { headers: { ...bearer(g.key), ...headers }, body });

  /** A member enters as through the bot's button (their platform member looked up first, as the bot does). */
  async function enter(g: TestGuild, giveawayId: number, userId: string, at = clock.now()) {
    const member = await createLocalPlatform(db()).getMember(g.id, userId);
    return db()
      .transaction()
      .execute((trx) => enterGiveaway(trx, { guildId: g.id, giveawayId, userId, member, at, actor: { type: 'system' } }));
  }
  const leave = (g: TestGuild, giveawayId: number, userId: string, at = clock.now()) =>
    db()
      .transaction()
      .execute((trx) => leaveGiveaway(trx, { guildId: g.id, giveawayId, userId, at, actor: { type: 'system' } }));
  const cancel = (g: TestGuild, giveawayId: number, at = clock.now()) =>
    db()
      .transaction()
      .execute((trx) => cancelGiveaway(trx, { guildId: g.id, giveawayId, at, actor: { type: 'operator', name: 'test' } }));

  /** Makes a giveaway active without a workflow (as its start would), for tests of entries. */
  const activate = (g: TestGuild, giveawayId: number) =>
    db().updateTable('giveaways').set({ status: 'active' }).where('guild_id', '=', g.id).where('id', '=', giveawayId).execute();

  /** Everything a giveaway write may touch. */
  async function snapshot(guildId: string) {
    const rows = (table: 'giveaways' | 'giveaway_entries' | 'giveaway_draws' | 'giveaway_actions') =>
      db().selectFrom(table).selectAll().where('guild_id', '=', guildId).execute();
    return {
      giveaways: (await rows('giveaways')).map((g) => ({ ...g, workflow_started_at: null })),
      entries: await rows('giveaway_entries'),
      draws: await rows('giveaway_draws'),
      actions: await rows('giveaway_actions'),
      balances: await db().selectFrom('bank_accounts').selectAll().where('guild_id', '=', guildId).orderBy('user_id').execute(),
      writes: await countWrites(db(), guildId),
    };
  }

  /** Runs `act` (which asserts the refusal) and asserts that it changed nothing. */
  async function refused(guildId: string, act: () => Promise<void>) {
    const before = await snapshot(guildId);
    await act();
    expect(await snapshot(guildId)).toEqual(before);
  }

  return { setup, start, list, get, entries, end, reroll, enter, leave, cancel, activate, snapshot, refused };
}
