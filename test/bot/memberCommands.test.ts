import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BANK_SETTINGS, saveBankSettings } from '../../db/bank/accounts.js';
import { insertItem } from '../../db/shop/items.js';
import { moveBalance } from '../../src/bank/moveBalance.js';
import { addBonusInvites } from '../../src/invites/addBonusInvites.js';
import { levelFromXp } from '../../src/levels/curve.js';
import { useTestDatabase } from '../harness/database.js';
import { ITEM_DEFAULTS } from '../api/shop/shopBed.js';
import { answerText, startCommandBed, type CommandBed } from './commandBed.js';
import { auditActorsOf } from '../harness/rows.js';

// The members' slash commands end to end: the interaction through the fake gateway, the use case the API's route
// calls, the answer (ephemeral) on the fake's interaction endpoints, and what changed in the database.

const NOW = new Date('2026-11-29T12:00:00Z');
const database = useTestDatabase();
const db = () => database.db;
let t: CommandBed;

beforeAll(async () => {
  t = await startCommandBed(database, NOW, ['levels', 'bank', 'shop', 'invites', 'tickets', 'applications']);
  await saveBankSettings(db(), t.server.id, { ...DEFAULT_BANK_SETTINGS, currency: { name: 'gem', plural: 'gems', emoji: '💎' } });
});
afterAll(() => t?.bed.close());

const xpOf = (userId: string, xp: number, hidden = false) =>
  db().insertInto('level_members').values({ guild_id: t.server.id, user_id: userId, xp, hidden, last_xp_at: NOW }).execute();
const fund = (userId: string, amount: number) =>
  db().transaction().execute((trx) => moveBalance(trx, { guildId: t.server.id, userId, type: 'add', amount, ledgerType: 'admin_add', reason: null, actorId: null, apiKeyId: null, at: NOW }));
const item = (overrides: Partial<typeof ITEM_DEFAULTS>) => insertItem(db(), t.server.id, { ...ITEM_DEFAULTS, ...overrides }, NOW);
const balanceOf = async (userId: string) =>
  (await db().selectFrom('bank_accounts').select('balance').where('guild_id', '=', t.server.id).where('user_id', '=', userId).executeTakeFirst())?.balance;
const purchasesOf = (userId: string) => db().selectFrom('shop_purchases').select(['item_id', 'price_paid']).where('guild_id', '=', t.server.id).where('user_id', '=', userId).execute();

describe('/rank', () => {
  it("answers the invoker's level, the XP to the next level and the rank, ephemeral", async () => {
    const [top, me] = [t.member(), t.member()];
    await xpOf(top, 90_000);
    await xpOf(me, 1_000);
    const p = levelFromXp(1_000);
    const payload = await t.use({ userId: me, name: 'rank' });
    const [answer] = t.bed.answersTo(payload.token);
    expect(answer!.body).toEqual({
      type: 4,
      data: { content: `You are level ${p.level} with 1,000 XP: ${p.xpForNext - p.xpIntoLevel} XP to level ${p.level + 1}, ranked #2.`, flags: 64, allowed_mentions: { parse: [] } },
    });
  });

  it("answers another member's rank, and keeps a hidden member's private", async () => {
    const [me, other, hidden] = [t.member(), t.member(), t.member()];
    await xpOf(other, 0);
    await xpOf(hidden, 5_000, true);
    expect(await t.answer({ userId: me, name: 'rank', options: { member: other } })).toBe(`<@${other}> is level 0 with 0 XP: 100 XP to level 1, not ranked yet (no XP).`);
    expect(await t.answer({ userId: me, name: 'rank', options: { member: hidden } })).toBe(`<@${hidden}> keeps their rank private.`);
  });
});

describe('/leaderboard', () => {
  it('lists the levels board ten a page, and says when a page is past the end', async () => {
    const me = t.member();
    const text = await t.answer({ userId: me, name: 'leaderboard' });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\*\*Levels leaderboard\*\*, page 1 of \d+$/);
    expect(lines[1]).toMatch(/^#1 <@\d+>: level \d+, 90,000 XP$/);
    expect(await t.answer({ userId: me, name: 'leaderboard', options: { page: 1000 } })).toMatch(/^There is no page 1000: the board has \d+\.$/);
  });

  it('lists the invites board with board:invites; with Invites off it says so', async () => {
    const [me, inviter] = [t.member(), t.member()];
    await db().transaction().execute((trx) => addBonusInvites(trx, { guildId: t.server.id, userId: inviter, amount: 7, reason: null, actor: { type: 'system' }, at: NOW }));
    expect(await t.answer({ userId: me, name: 'leaderboard', options: { board: 'invites' } })).toBe(`**Invites leaderboard**, page 1 of 1\n#1 <@${inviter}>: 7 invites`);
    expect(await t.answer({ userId: me, name: 'invites', options: { member: inviter } })).toBe(
      `<@${inviter}> has 7 invites (0 verified, 7 bonus, 0 pending, 0 left, 0 fake), ranked #1.`,
    );
    await t.setFeatures(['levels', 'bank', 'shop', 'tickets', 'applications']);
    try {
      expect(await t.answer({ userId: me, name: 'leaderboard', options: { board: 'invites' } })).toBe('Invites and Rewards is turned off on this server.');
      expect(await t.answer({ userId: me, name: 'invites' })).toBe('Invites and Rewards is turned off on this server.');
    } finally {
      await t.setFeatures(['levels', 'bank', 'shop', 'invites', 'tickets', 'applications']);
    }
  });
});

describe('/balance', () => {
  it("answers the balance in the server's currency (the starting balance without an account)", async () => {
    const [me, rich] = [t.member(), t.member()];
    await fund(rich, 1_250);
    expect(await t.answer({ userId: me, name: 'balance' })).toBe(`You have 💎 ${DEFAULT_BANK_SETTINGS.startingBalance.toLocaleString('en-US')} gems.`);
    expect(await t.answer({ userId: me, name: 'balance', options: { member: rich } })).toBe(`<@${rich}> has 💎 ${(1_250 + DEFAULT_BANK_SETTINGS.startingBalance).toLocaleString('en-US')} gems.`);
  });

  it('with the bank off answers so and reads nothing else', async () => {
    await t.setFeatures(['levels', 'shop', 'invites', 'tickets', 'applications']);
    try {
      expect(await t.answer({ userId: t.member(), name: 'balance' })).toBe('Bank is turned off on this server.');
    } finally {
      await t.setFeatures(['levels', 'bank', 'shop', 'invites', 'tickets', 'applications']);
    }
  });
});

describe('/shop and /buy', () => {
  it('lists the items on sale (hidden and disabled ones left out)', async () => {
    await db().deleteFrom('shop_items').where('guild_id', '=', t.server.id).execute();
    await item({ name: 'Sticker', price: 100, sortOrder: 1 });
    await item({ name: 'VIP', emoji: '👑', price: 500, stock: 2, minLevel: 5, sortOrder: 2 });
    await item({ name: 'Secret', hidden: true });
    await item({ name: 'Retired', enabled: false });
    expect(await t.answer({ userId: t.member(), name: 'shop' })).toBe(
      ['**Shop**', '**Sticker**: 💎 100 gems', '👑 **VIP**: 💎 500 gems (2 left, level 5+)', 'Buy one with `/buy`.'].join('\n'),
    );
  });

  it('suggests items as the member types, then buys the picked one: stock, balance, purchase (the API purchase)', async () => {
    const poster = await item({ name: 'Poster', price: 300, stock: 1 });
    const buyer = t.member();
    await fund(buyer, 400 - DEFAULT_BANK_SETTINGS.startingBalance);
    expect(await t.suggestions({ userId: buyer, name: 'buy', options: { item: 'pos' }, focused: 'item' })).toEqual([{ name: 'Poster (💎 300 gems)', value: String(poster.id) }]);

    expect(await t.answer({ userId: buyer, name: 'buy', options: { item: String(poster.id) } })).toBe('You bought **Poster** for 💎 300 gems; your balance is now 💎 100 gems.');
    expect(await purchasesOf(buyer)).toEqual([{ item_id: poster.id, price_paid: 300 }]);
    expect(await balanceOf(buyer)).toBe(100);
    const stock = await db().selectFrom('shop_items').select('stock').where('id', '=', poster.id).executeTakeFirstOrThrow();
    expect(stock.stock).toBe(0);
    const event = await db().selectFrom('events').select('data').where('guild_id', '=', t.server.id).where('type', '=', 'shop.purchase').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(event.data).toMatchObject({ userId: buyer, item: { id: poster.id, name: 'Poster' }, price: 300 });
    // The audit log names the member who used the command, not the bot.
    expect(await auditActorsOf(db(), t.server.id, 'shop.buy')).toEqual([{ actor_type: 'member', actor_id: buyer }]);

    // Sold out now: the next buyer is told so and nothing changes.
    const late = t.member();
    await fund(late, 1_000);
    expect(await t.answer({ userId: late, name: 'buy', options: { item: 'Poster' } })).toBe('That item is sold out.');
    expect(await purchasesOf(late)).toEqual([]);
  });

  it("suggests at most 25 items, their names fitted within Discord's 100 characters with an ellipsis (the fake refuses more)", async () => {
    const long = await Promise.all(Array.from({ length: 30 }, (_, i) => item({ name: `Banner ${String(i).padStart(2, '0')} ${'w'.repeat(90)}`, price: 5, sortOrder: 100 + i })));
    const choices = await t.suggestions({ userId: t.member(), name: 'buy', options: { item: 'banner' }, focused: 'item' });
    expect(choices).toHaveLength(25);
    expect(choices.map((c) => c.value)).toEqual(long.slice(0, 25).map((i) => String(i.id)));
    for (const c of choices) {
      expect([...c.name]).toHaveLength(100);
      expect(c.name).toMatch(/^Banner \d\d w{89}…$/);
    }
  });

  it.each([
    ['a balance too low', { price: 10_000 }, (b: number) => `You cannot afford it: your balance is ${b}.`],
    ['a level not reached', { price: 1, minLevel: 50 }, () => "You do not meet the item's requirement: level 50 needed, you are level 0."],
    ['an unknown item', null, () => 'There is no such item in the shop.'],
  ])('refuses %s in words, and charges nothing', async (_, overrides, expected) => {
    const buyer = t.member();
    const target = overrides === null ? { id: 999_999 } : await item({ name: `Thing ${Math.random()}`, ...overrides });
    const before = await balanceOf(buyer);
    const text = await t.answer({ userId: buyer, name: 'buy', options: { item: String(target.id) } });
    expect(text).toBe(expected(DEFAULT_BANK_SETTINGS.startingBalance));
    expect(await purchasesOf(buyer)).toEqual([]);
    expect(await balanceOf(buyer)).toBe(before);
  });

  it('with the shop off answers so and sells nothing', async () => {
    const cheap = await item({ name: 'Cheap', price: 0 });
    const buyer = t.member();
    await t.setFeatures(['levels', 'bank', 'invites', 'tickets', 'applications']);
    try {
      expect(await t.answer({ userId: buyer, name: 'buy', options: { item: String(cheap.id) } })).toBe('Shop is turned off on this server.');
      expect(await t.suggestions({ userId: buyer, name: 'buy', options: { item: '' }, focused: 'item' })).toEqual([]);
    } finally {
      await t.setFeatures(['levels', 'bank', 'shop', 'invites', 'tickets', 'applications']);
    }
    expect(await purchasesOf(buyer)).toEqual([]);
  });

  it('a replayed dispatch of a buy neither buys nor answers again', async () => {
    const pin = await item({ name: 'Pin', price: 0 });
    const buyer = t.member();
    const payload = await t.use({ userId: buyer, name: 'buy', options: { item: String(pin.id) } });
    await t.bed.dispatch('INTERACTION_CREATE', payload);
    expect(await purchasesOf(buyer)).toHaveLength(1);
    expect(t.bed.answersTo(payload.token)).toHaveLength(1);
    expect(answerText(t.bed.answersTo(payload.token))).toBe('You bought **Pin** for free.');
  });
});
