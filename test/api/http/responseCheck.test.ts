import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileResponseCheck, ResponseShapeError } from '../../../api/responseCheck.js';
import { BankBalance } from '../../../src/bank/contract.js';
import { LevelLeaderboard } from '../../../src/levels/contract.js';
import { loadConfig } from '../../../src/core/config.js';
import { PRODUCTION_ENV } from '../../harness/productionEnv.js';

const leaderboard = {
  items: [
    { rank: 1, userId: '100000000000000001', hidden: false, xp: 10, level: 1, messages: 3, voiceMinutes: 0, internal: 'dropped' },
    { rank: 2, userId: null, hidden: true, xp: 5, level: 0, messages: 1, voiceMinutes: 2 },
  ],
  total: 2,
  nextCursor: null,
  secret: 'dropped',
};

describe('the shape check of a response (RESPONSE_CHECK=shape)', () => {
  it('answers what the whole schema answers for a valid response: undocumented fields dropped at every depth', () => {
    const shape = compileResponseCheck(LevelLeaderboard, 'shape')(leaderboard);
    expect(shape).toEqual(LevelLeaderboard.parse(leaderboard));
    expect(shape).not.toHaveProperty('secret');
    expect((shape as { items: object[] }).items[0]).not.toHaveProperty('internal');
    const balance = { userId: '100000000000000001', balance: 7, currency: { name: 'coin', plural: 'coins', emoji: null }, extra: 1 };
    expect(compileResponseCheck(BankBalance, 'shape')(balance)).toEqual(BankBalance.parse(balance));
  });

  it.each<[string, unknown, string]>([
    ['a missing required field', { ...leaderboard, total: undefined }, '.total'],
    ['a string where a number is documented', { ...leaderboard, total: '2' }, '.total'],
    ['a row that is not an object', { ...leaderboard, items: [null] }, '.items.0'],
    ['items that are not an array', { ...leaderboard, items: {} }, '.items'],
    ['a nested missing field', { ...leaderboard, items: [{ ...leaderboard.items[1], hidden: undefined }] }, '.items.0.hidden'],
  ])('refuses %s, naming where', (_label, value, path) => {
    const check = compileResponseCheck(LevelLeaderboard, 'shape');
    expect(() => check(value)).toThrow(ResponseShapeError);
    expect(() => check(value)).toThrow(`at ${path}:`);
  });

  it('leaves what it cannot compile (unions, defaults) to the schema itself', () => {
    const schema = z.object({ id: z.union([z.string(), z.number()]), mode: z.string().default('auto'), note: z.string().optional() });
    const check = compileResponseCheck(schema, 'shape');
    expect(check({ id: 3, other: true })).toEqual({ id: 3, mode: 'auto' });
    expect(() => check({ id: true })).toThrow(z.ZodError);
  });

  it('is what production uses unless told otherwise; tests and development run the whole schema', () => {
    expect(loadConfig(PRODUCTION_ENV).http.responseCheck).toBe('shape');
    expect(loadConfig({ NODE_ENV: 'test' }).http.responseCheck).toBe('parse');
    expect(loadConfig({ NODE_ENV: 'development' }).http.responseCheck).toBe('parse');
    expect(loadConfig({ ...PRODUCTION_ENV, RESPONSE_CHECK: 'parse' }).http.responseCheck).toBe('parse');
  });
});
