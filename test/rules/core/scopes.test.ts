import { describe, expect, it } from 'vitest';
import { isScope, parseScopes, SCOPES } from '../../../src/core/scopes.js';

describe('parseScopes', () => {
  it.each([
    ['bank:read', ['bank:read'], []],
    ['bank:write', ['bank:write'], []],
    ['bank:read,bank:write', ['bank:read', 'bank:write'], []],
    [' levels:write , guild:read ,, ', ['levels:write', 'guild:read'], []],
    ['flows:run,flows:run', ['flows:run'], []],
    ['bank:read,bank:*,BANK:READ', ['bank:read'], ['bank:*', 'BANK:READ']],
    // The scopes are independent names: there is no "bank" or "flows:write".
    ['bank,flows:write', [], ['bank', 'flows:write']],
    ['', [], []],
    [',', [], []],
    ['all,guild:read', ['guild:read'], ['all']],
    ['ALL', [], ['ALL']],
    ['bank:read bank:write', [], ['bank:read bank:write']],
  ])('parses %j', (input, scopes, unknown) => {
    expect(parseScopes(input)).toEqual({ scopes, unknown });
  });

  it.each(['all', ' all ', 'all\n'])('expands %j to every scope', (input) => {
    const parsed = parseScopes(input);
    expect(parsed).toEqual({ scopes: [...SCOPES], unknown: [] });
    expect(parsed.scopes).toHaveLength(21);
    expect(parsed.scopes).not.toBe(SCOPES);
  });
});

describe('isScope', () => {
  it.each([
    ['guild:read', true],
    ['moderation:write', true],
    ['flows:run', true],
    ['guild:write', false],
    ['flows:read ', false],
    ['Moderation:write', false],
    ['all', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(isScope(value)).toBe(expected);
  });
});
