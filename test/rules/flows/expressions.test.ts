import { describe, expect, it } from 'vitest';
import { evaluateExpression, resolveTemplate } from '../../../src/flows/expressions.js';
import { nextUtcDay, utcDay } from '../../../src/flows/quota.js';
import { webhookInput } from '../../../src/flows/webhookTrigger.js';

const context = { trigger: { amount: 5, name: 'Ada', big: 'x'.repeat(40_000) }, nodes: { calc: { total: 12 } } };

describe('flow expressions (JSONata with guards)', () => {
  it('resolve strings starting with = over {trigger, nodes}; other values stay as written', async () => {
    expect(
      await resolveTemplate({ a: '=trigger.amount * 2', b: ['=nodes.calc.total', 'plain', 3], c: { d: '="Hi " & trigger.name' }, e: null, f: '=missing' }, context),
    ).toEqual({ a: 10, b: [12, 'plain', 3], c: { d: 'Hi Ada' }, e: null, f: null });
  });

  it.each([
    ['($f := function($x){ $f($x) }; $f(1))', /ran longer than 250 ms/],
    ['($f := function($x){ 1 + $f($x) }; $f(1))', /nested deeper than 200/],
    ['$count([1..100000000])', /sequence exceeded 10000 items/],
    ['$match("aaa", /a+/)', /regular expressions are not allowed/],
    ['$pad("x", 100000)', /\$pad width is limited to 1000/],
    ['trigger.big & trigger.big', /larger than 65536 bytes/],
    ['1 +', /failed/],
  ])('stops %s with a clear error', async (expression, message) => {
    await expect(evaluateExpression(expression, context)).rejects.toThrow(message);
  });
});

describe('flow run quota days and webhook input', () => {
  it('counts UTC days', () => {
    expect(utcDay(new Date('2026-11-24T23:59:59.999Z'))).toBe('2026-11-24');
    expect(nextUtcDay(new Date('2026-11-24T23:59:59.999Z')).toISOString()).toBe('2026-11-25T00:00:00.000Z');
  });

  it('gives a webhook run {headers, query, body}, without credentials headers', () => {
    expect(webhookInput({ headers: { 'X-Event': 'push', Authorization: 'Bearer x', cookie: 'a=b', accept: ['a', 'b'] }, query: { ref: 'main' }, body: { n: 1 } })).toEqual({
      headers: { 'x-event': 'push', accept: 'a, b' },
      query: { ref: 'main' },
      body: { n: 1 },
    });
  });
});
