import { describe, expect, it } from 'vitest';
import { saveBankSettings } from '../../../db/bank/accounts.js';
import { findDraw } from '../../../db/giveaways/draws.js';
import { runDraw } from '../../../src/giveaways/drawGiveaway.js';
import { RerollRefusal } from '../../../src/giveaways/giveawayRefusal.js';
import { createLocalPlatform } from '../../../src/platform/localPlatform.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { giveawayRequests, userIdAged } from './giveawayBed.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app, clock } = useApiTestBed({ now: NOW, temporal: true });
const { setup, start, get, entries, enter, leave, cancel, activate, refused } = giveawayRequests(db, app, clock);

const ledger = (guildId: string, userId: string) =>
  db().selectFrom('bank_ledger').select(['type', 'amount', 'balance_after', 'reason']).where('guild_id', '=', guildId).where('user_id', '=', userId).orderBy('id').execute();
const bankEvents = (guildId: string) =>
  db().selectFrom('events').select('data').where('guild_id', '=', guildId).where('type', '=', 'bank.transaction').orderBy('seq').execute();

async function activeGiveaway(requirements: Record<string, unknown> = {}) {
  const g = await setup();
  const id = (await start(g, { requirements })).body.id as number;
  await activate(g, id);
  return { g, id };
}

describe('entering and leaving (bot-side use cases)', () => {
  it('an entry with a cost: debited with a ledger row and bank.transaction; entering again changes nothing; leaving refunds', async () => {
    const { g, id } = await activeGiveaway({ entryCost: 40 });
    await saveBankSettings(db(), g.id, { currency: { name: 'coin', plural: 'coins', emoji: null }, startingBalance: 100, maxBalance: null, logChannelId: null });
    const user = await g.addMember();
    const first = await enter(g, id, user);
    expect(first).toMatchObject({ entered: true, tickets: 1, paid: 40 });
    expect(first.events.map((e) => e.type)).toEqual(['bank.transaction', 'bank.transaction']);
    expect(await ledger(g.id, user)).toEqual([
      { type: 'starting_balance', amount: 100, balance_after: 100, reason: null },
      { type: 'giveaway_entry', amount: -40, balance_after: 60, reason: `Giveaway #${id} entry` },
    ]);
    await refused(g.id, async () => {
      expect(await enter(g, id, user)).toMatchObject({ entered: false, tickets: 1, paid: 40, events: [] });
    });
    expect((await get(g, id)).body).toMatchObject({ entrants: 1, entries: 1 });

    const left = await leave(g, id, user);
    expect(left.refunded).toBe(40);
    expect((await ledger(g.id, user)).at(-1)).toEqual({ type: 'giveaway_refund', amount: 40, balance_after: 100, reason: `Giveaway #${id} entry refunded (left)` });
    expect((await bankEvents(g.id)).map((e) => (e.data as { type: string }).type)).toEqual(['starting_balance', 'giveaway_entry', 'giveaway_refund']);
    await expect(leave(g, id, user)).rejects.toMatchObject({ code: 'NOT_ENTERED' });
  });

  it('no account-age requirement (minAccountAgeDays 0) lets in an account whose id is a few seconds ahead of our clock', async () => {
    const { g, id } = await activeGiveaway({ minAccountAgeDays: 0 });
    const fromTheFuture = await g.addMember({ userId: userIdAged(NOW, -3 / 86_400) });
    expect(await enter(g, id, fromTheFuture)).toMatchObject({ entered: true, tickets: 1 });
    expect((await get(g, id)).body).toMatchObject({ entrants: 1, entries: 1 });
  });

  it('two presses at once by one member: one entry, one debit', async () => {
    const { g, id } = await activeGiveaway({ entryCost: 40 });
    await saveBankSettings(db(), g.id, { currency: { name: 'coin', plural: 'coins', emoji: null }, startingBalance: 100, maxBalance: null, logChannelId: null });
    const user = await g.addMember();
    const presses = await Promise.all(Array.from({ length: 5 }, () => enter(g, id, user)));
    expect(presses.filter((p) => p.entered)).toHaveLength(1);
    expect(presses.every((p) => p.paid === 40 && p.tickets === 1)).toBe(true);
    expect((await ledger(g.id, user)).map((r) => [r.type, r.balance_after])).toEqual([
      ['starting_balance', 100],
      ['giveaway_entry', 60],
    ]);
    expect((await get(g, id)).body).toMatchObject({ entrants: 1, entries: 1 });
  });

  it('refusals change nothing: not a member, a bot, requirements unmet, too poor, bank off, not active, unknown giveaway', async () => {
    const { g, id } = await activeGiveaway({ roleIds: [], minAccountAgeDays: 30, minMemberDays: 10, minLevel: 3, entryCost: 500 });
    const young = await g.addMember({ userId: userIdAged(NOW, 5) });
    const newcomer = await g.addMember({ joinedAt: new Date(NOW.getTime() - 86_400_000) });
    const bot = await g.addMember({ bot: true });
    const lowLevel = await g.addMember();
    const poor = await g.addMember();
    await db().insertInto('level_members').values({ guild_id: g.id, user_id: poor, xp: 1_000_000, last_xp_at: null }).execute();
    const cases: Array<[string, string]> = [
      ['1999999999999999999', 'MEMBER_NOT_FOUND'],
      [bot, 'BOT_ACCOUNT'],
      [young, 'ACCOUNT_TOO_NEW'],
      [newcomer, 'MEMBER_TOO_NEW'],
      [lowLevel, 'LEVEL_TOO_LOW'],
      [poor, 'INSUFFICIENT_FUNDS'],
    ];
    for (const [userId, code] of cases) {
      await refused(g.id, async () => {
        await expect(enter(g, id, userId)).rejects.toMatchObject({ code });
      });
    }
    await refused(g.id, async () => {
      await expect(enter(g, 999, poor)).rejects.toMatchObject({ code: 'GIVEAWAY_NOT_FOUND' });
    });
    await refused(g.id, async () => {
      // At endsAt the draw is due, whether or not the workflow got to it yet.
      await expect(enter(g, id, lowLevel, new Date(NOW.getTime() + 3_600_000))).rejects.toMatchObject({ code: 'GIVEAWAY_NOT_ACTIVE' });
    });
    const scheduled = (await start(g, {})).body.id as number;
    await refused(g.id, async () => {
      await expect(enter(g, scheduled, poor)).rejects.toMatchObject({ code: 'GIVEAWAY_NOT_ACTIVE' });
    });
    await db().updateTable('guilds').set({ features: ['giveaways', 'levels'] }).where('id', '=', g.id).execute();
    await refused(g.id, async () => {
      await expect(enter(g, id, poor)).rejects.toMatchObject({ code: 'BANK_DISABLED' });
    });
  });

  it('required and blocked roles; bonus roles give the highest one’s tickets', async () => {
    const g0 = await setup();
    const { roles } = g0;
    const id = (await start(g0, { requirements: { roleIds: [roles.member], blockedRoleIds: [roles.muted], bonusRoles: [{ roleId: roles.booster, entries: 3 }, { roleId: roles.vip, entries: 5 }] } })).body.id as number;
    await activate(g0, id);
    const plain = await g0.addMember({ roleIds: [roles.member] });
    const both = await g0.addMember({ roleIds: [roles.member, roles.booster, roles.vip] });
    const outsider = await g0.addMember({ roleIds: [] });
    const muted = await g0.addMember({ roleIds: [roles.member, roles.muted] });
    expect((await enter(g0, id, plain)).tickets).toBe(1);
    expect((await enter(g0, id, both)).tickets).toBe(5);
    await expect(enter(g0, id, outsider)).rejects.toMatchObject({ code: 'MISSING_ROLE' });
    await expect(enter(g0, id, muted)).rejects.toMatchObject({ code: 'BLOCKED_ROLE' });
    expect((await get(g0, id)).body).toMatchObject({ entrants: 2, entries: 6, entryCounts: { entrants: 2, entries: 6, bonusEntries: 4 } });
  });

  it('a cancel refunds every paid entry and takes no more entries', async () => {
    const { g, id } = await activeGiveaway({ entryCost: 10 });
    await saveBankSettings(db(), g.id, { currency: { name: 'coin', plural: 'coins', emoji: null }, startingBalance: 50, maxBalance: null, logChannelId: null });
    const users = [await g.addMember(), await g.addMember()];
    for (const u of users) await enter(g, id, u);
    const { refunds, events } = await cancel(g, id);
    expect(refunds.map((r) => r.amount)).toEqual([10, 10]);
    expect(events.every((e) => e.type === 'bank.transaction')).toBe(true);
    for (const u of users) expect((await ledger(g.id, u)).at(-1)).toMatchObject({ type: 'giveaway_refund', amount: 10, balance_after: 50 });
    await expect(enter(g, id, users[0]!)).rejects.toMatchObject({ code: 'GIVEAWAY_NOT_ACTIVE' });
    await expect(cancel(g, id)).rejects.toMatchObject({ code: 'GIVEAWAY_NOT_OPEN' });
    expect((await get(g, id)).body).toMatchObject({ status: 'cancelled', entrants: 0 });
  });

  it('GET entries pages entrants first entered first; a draw retried returns the stored winners', async () => {
    const { g, id } = await activeGiveaway();
    const users = [];
    for (let i = 0; i < 5; i++) {
      users.push(await g.addMember());
      await enter(g, id, users[i]!, new Date(NOW.getTime() + i * 1000));
    }
    const page1 = await entries(g, id, 'limit=2');
    expect(page1.body).toEqual({
      items: users.slice(0, 2).map((userId, i) => ({ userId, tickets: 1, entryCost: 0, enteredAt: new Date(NOW.getTime() + i * 1000).toISOString() })),
      total: 5,
      page: 1,
      nextPage: 2,
    });
    const page3 = await entries(g, id, 'limit=2&page=3');
    expect(page3.body).toMatchObject({ items: [{ userId: users[4] }], page: 3, nextPage: null });
    expect((await entries(g, 999)).body.error).toBe('GIVEAWAY_NOT_FOUND');

    const platform = createLocalPlatform(db());
    const request = { guildId: g.id, giveawayId: id, drawNumber: 1, actor: null, at: NOW };
    const first = await runDraw(db(), platform, request);
    const retried = await runDraw(db(), platform, { ...request, at: new Date(NOW.getTime() + 5000) });
    expect(retried.outcome).toEqual(first.outcome);
    expect(retried.events).toEqual([]);
    expect((await findDraw(db(), g.id, id, 1))!.drawnAt).toEqual(NOW);
  });

  it('a reroll of a giveaway not ended is refused by the draw (GIVEAWAY_NOT_ENDED, its status), nothing changed', async () => {
    const { g, id } = await activeGiveaway();
    await enter(g, id, await g.addMember());
    const platform = createLocalPlatform(db());
    const reroll = { guildId: g.id, giveawayId: id, drawNumber: 2, reroll: {}, actor: null, at: NOW };
    await refused(g.id, async () => {
      const err = await runDraw(db(), platform, reroll).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RerollRefusal);
      expect(err).toMatchObject({ code: 'GIVEAWAY_NOT_ENDED', message: `Giveaway ${id} is active.` });
    });
  });
});
