import { describe, expect, it } from 'vitest';
import { FEATURE_LABELS, FEATURES, isFeature, parseFeatures } from '../../../src/core/features.js';

describe('parseFeatures', () => {
  it.each([
    ['bank', ['bank'], []],
    ['bank,levels', ['bank', 'levels'], []],
    ['levels,bank', ['levels', 'bank'], []],
    [' levels , bank ,, ', ['levels', 'bank'], []],
    ['bank,bank,levels,bank', ['bank', 'levels'], []],
    ['bank,nope,Bank', ['bank'], ['nope', 'Bank']],
    ['nope,nope', [], ['nope']],
    ['', [], []],
    [' , ,', [], []],
    // "all" is only understood alone.
    ['all,bank', ['bank'], ['all']],
    ['ALL', [], ['ALL']],
    ['bank;levels', [], ['bank;levels']],
    ['toString,constructor', [], ['toString', 'constructor']],
  ])('parses %j', (input, features, unknown) => {
    expect(parseFeatures(input)).toEqual({ features, unknown });
  });

  it.each(['all', '  all  ', '\tall\n'])('expands %j to every feature', (input) => {
    const parsed = parseFeatures(input);
    expect(parsed).toEqual({ features: [...FEATURES], unknown: [] });
    expect(parsed.features).toHaveLength(11);
    expect(parsed.features).not.toBe(FEATURES);
  });
});

describe('isFeature', () => {
  it.each([
    ['bank', true],
    ['members', true],
    ['appeals', true],
    ['Bank', false],
    ['bank ', false],
    ['all', false],
    ['', false],
    ['toString', false],
  ])('%j → %s', (value, expected) => {
    expect(isFeature(value)).toBe(expected);
  });
});

describe('FEATURE_LABELS', () => {
  it.each([
    ['bank', 'Bank'],
    ['invites', 'Invites and Rewards'],
    ['appeals', 'Ban appeals'],
    ['moderation', 'Moderation'],
  ] as const)('names %s %j in FEATURE_DISABLED messages', (feature, label) => {
    expect(FEATURE_LABELS[feature]).toBe(label);
  });

  it('has a non-empty label for every feature and no other', () => {
    expect(Object.keys(FEATURE_LABELS).sort()).toEqual([...FEATURES].sort());
    for (const feature of FEATURES) expect(FEATURE_LABELS[feature]).toMatch(/\S/);
  });
});
