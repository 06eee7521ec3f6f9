import { describe, expect, it } from 'vitest';
import { bankLogMessage } from '../../../src/bank/bankLogMessage.js';

const USER = '300000000000000001';
const ACTOR = '300000000000000002';
const coins = { name: 'coin', plural: 'coins', emoji: '🪙' };
const plain = { name: 'gem', plural: 'gems', emoji: null };

type Data = Parameters<typeof bankLogMessage>[0];
const data = (over: Partial<Data> = {}): Data => ({
  transactionId: 42,
  userId: USER,
  type: 'api',
  amount: 1500,
  balanceAfter: 2500,
  reason: null,
  counterpartyId: null,
  actorId: ACTOR,
  createdAt: '2026-11-22T12:00:00.000Z',
  ...over,
});

describe('bankLogMessage', () => {
  it.each([
    ['a credit by an actor', {}, coins, `🪙 +1,500 coins for <@${USER}> (api by <@${ACTOR}>) balance 2,500 [#42]`],
    ['a debit', { amount: -1500, balanceAfter: 0 }, coins, `🪙 -1,500 coins for <@${USER}> (api by <@${ACTOR}>) balance 0 [#42]`],
    ['one unit (singular)', { amount: 1, balanceAfter: 1 }, coins, `🪙 +1 coin for <@${USER}> (api by <@${ACTOR}>) balance 1 [#42]`],
    ['minus one unit (singular)', { amount: -1, balanceAfter: 0 }, coins, `🪙 -1 coin for <@${USER}> (api by <@${ACTOR}>) balance 0 [#42]`],
    ['zero (plural, signed +)', { amount: 0, balanceAfter: 7 }, coins, `🪙 +0 coins for <@${USER}> (api by <@${ACTOR}>) balance 7 [#42]`],
    ['two units (plural)', { amount: 2, balanceAfter: 2 }, coins, `🪙 +2 coins for <@${USER}> (api by <@${ACTOR}>) balance 2 [#42]`],
    ['a currency without emoji', {}, plain, `+1,500 gems for <@${USER}> (api by <@${ACTOR}>) balance 2,500 [#42]`],
    ['an empty emoji', {}, { ...plain, emoji: '' }, `+1,500 gems for <@${USER}> (api by <@${ACTOR}>) balance 2,500 [#42]`],
    [
      'a change without actor',
      { type: 'starting_balance', actorId: null, amount: 100, balanceAfter: 100 },
      coins,
      `🪙 +100 coins for <@${USER}> (starting_balance) balance 100 [#42]`,
    ],
    ['a reason', { reason: 'Event prize' }, coins, `🪙 +1,500 coins for <@${USER}> (api by <@${ACTOR}>) balance 2,500 — Event prize [#42]`],
    ['an empty reason (left out)', { reason: '' }, coins, `🪙 +1,500 coins for <@${USER}> (api by <@${ACTOR}>) balance 2,500 [#42]`],
    [
      'large amounts with thousands separators',
      { amount: -1_000_000_000_000, balanceAfter: Number.MAX_SAFE_INTEGER, transactionId: 1234567 },
      plain,
      `-1,000,000,000,000 gems for <@${USER}> (api by <@${ACTOR}>) balance 9,007,199,254,740,991 [#1234567]`,
    ],
    ['transaction 0', { transactionId: 0 }, plain, `+1,500 gems for <@${USER}> (api by <@${ACTOR}>) balance 2,500 [#0]`],
  ])('renders %s', (_label, over, currency, expected) => {
    expect(bankLogMessage(data(over), currency)).toBe(expected);
  });

  it('ignores the counterparty and the time', () => {
    const a = bankLogMessage(data({ counterpartyId: ACTOR, createdAt: '2030-01-01T00:00:00.000Z' }), coins);
    expect(a).toBe(`🪙 +1,500 coins for <@${USER}> (api by <@${ACTOR}>) balance 2,500 [#42]`);
  });
});
