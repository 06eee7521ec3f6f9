import { describe, expect, it } from 'vitest';
import { Snowflake, SNOWFLAKE_PATTERN } from '../../../src/core/snowflake.js';

describe('snowflake ids', () => {
  it.each([
    ['1'.repeat(16), false],
    ['1'.repeat(17), true],
    ['123456789012345678', true],
    ['9'.repeat(20), true],
    ['1'.repeat(21), false],
    ['', false],
    ['12345678901234567a', false],
    ['-12345678901234567', false],
    ['+12345678901234567', false],
    [' 123456789012345678', false],
    ['123456789012345678 ', false],
    ['123456789012345678\n', false],
    ['1234567890.12345678', false],
    ['1e17', false],
    // Only ASCII digits: Arabic-Indic and full-width digits are refused.
    ['١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨', false],
    ['１２３４５６７８９０１２３４５６７８', false],
  ])('%j matches: %s', (value, expected) => {
    expect(SNOWFLAKE_PATTERN.test(value)).toBe(expected);
    expect(Snowflake.safeParse(value).success).toBe(expected);
  });

  it('explains a malformed id', () => {
    const result = Snowflake.safeParse('12345');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['must be a snowflake id: 17 to 20 decimal digits']);
  });

  it.each([123456789012345678, null, undefined, ['123456789012345678']])('refuses the non-string %j', (value) => {
    expect(Snowflake.safeParse(value).success).toBe(false);
  });

  it('returns the id unchanged', () => {
    expect(Snowflake.parse('000000000000000001')).toBe('000000000000000001');
  });
});
