import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/core/canonicalJson.js';

describe('canonicalJson', () => {
  it.each([
    ['sorts keys', { b: 1, a: 2 }, '{"a":2,"b":1}'],
    ['sorts keys at every depth', { z: { y: 1, x: [{ d: 1, c: 2 }] }, a: null }, '{"a":null,"z":{"x":[{"c":2,"d":1}],"y":1}}'],
    ['keeps array order', [3, 1, 2], '[3,1,2]'],
    ['drops undefined properties', { a: undefined, b: 1 }, '{"b":1}'],
    ['writes undefined array entries as null', [undefined, 1], '[null,1]'],
    ['writes a top-level undefined as null', undefined, 'null'],
    ['writes null', null, 'null'],
    ['writes empty containers', { a: {}, b: [] }, '{"a":{},"b":[]}'],
    ['writes no whitespace', { a: [1, { b: 'x y' }] }, '{"a":[1,{"b":"x y"}]}'],
    ['escapes strings as JSON does', 'a"b\\c\nd\u0001', '"a\\"b\\\\c\\nd\\u0001"'],
    ['escapes keys as JSON does', { 'k"1': 1, 'k\n': 2 }, '{"k\\n":2,"k\\"1":1}'],
    ['keeps non-ASCII text as is', { name: 'Zoë 🪙' }, '{"name":"Zoë 🪙"}'],
    ['writes numbers as JSON does', [1.5, -0, 1e21, 0.1, -7], '[1.5,0,1e+21,0.1,-7]'],
    ['writes non-finite numbers as null', [Number.NaN, Number.POSITIVE_INFINITY], '[null,null]'],
    ['writes booleans', { t: true, f: false }, '{"f":false,"t":true}'],
    ['writes a bare string', 'x', '"x"'],
    ['writes a bare number', 42, '42'],
    // Code-unit order, not locale order: upper case before "_" before lower case.
    ['sorts by UTF-16 code units', { b: 1, B: 2, a: 3, _: 4 }, '{"B":2,"_":4,"a":3,"b":1}'],
    // Integer-like keys sort as text ("10" < "9"), not in the numeric order objects enumerate them in.
    ['sorts integer-like keys as text', { 9: 'nine', 10: 'ten', 1: 'one' }, '{"1":"one","10":"ten","9":"nine"}'],
    ['sorts a key before its extensions', { ab: 1, a: 2, abc: 3 }, '{"a":2,"ab":1,"abc":3}'],
  ])('%s', (_label, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it.each([
    [{ amount: 5, type: 'add', reason: null }, { reason: null, type: 'add', amount: 5 }],
    [{ a: { c: [1, 2], b: true } }, { a: { b: true, c: [1, 2] } }],
    [JSON.parse('{"x": 1, "y": {"q": 2, "p": 3}}'), JSON.parse('{"y":{"p":3,"q":2},"x":1}')],
  ])('serialises bodies that mean the same identically: %j', (a, b) => {
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it.each([
    [{ a: [1, 2] }, { a: [2, 1] }],
    [{ a: 1 }, { a: '1' }],
    [{ a: null }, {}],
    [{ a: 1 }, { A: 1 }],
  ])('keeps bodies that differ apart: %j vs %j', (a, b) => {
    expect(canonicalJson(a)).not.toBe(canonicalJson(b));
  });

  it('gives text JSON.parse reads back to an equal value', () => {
    const value = { z: [{ b: 1, a: [true, null, 'x'] }], a: { nested: { deep: -1.25 } } };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});
