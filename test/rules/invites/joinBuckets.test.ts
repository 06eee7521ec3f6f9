import { describe, expect, it } from 'vitest';
import { nextBucket } from '../../../src/invites/joinBuckets.js';

const at = (status: 'pending' | 'verified' | 'fake' | 'left', leftFrom: 'pending' | 'verified' | null = null) => ({ status, leftFrom });

describe('nextBucket', () => {
  it('opens a pending bucket on a first join, counted in total', () => {
    expect(nextBucket(undefined, 'join')).toEqual({ status: 'pending', leftFrom: null, delta: { pending: 1, total: 1 } });
  });

  it('moves pending to verified or fake', () => {
    expect(nextBucket(at('pending'), 'verify')).toEqual({ status: 'verified', leftFrom: null, delta: { pending: -1, verified: 1 } });
    expect(nextBucket(at('pending'), 'fake')).toEqual({ status: 'fake', leftFrom: null, delta: { pending: -1, fake: 1 } });
  });

  it('moves pending or verified to left, remembering where from', () => {
    expect(nextBucket(at('pending'), 'leave')).toEqual({ status: 'left', leftFrom: 'pending', delta: { pending: -1, left: 1 } });
    expect(nextBucket(at('verified'), 'leave')).toEqual({ status: 'left', leftFrom: 'verified', delta: { verified: -1, left: 1 } });
  });

  it('reactivates a left bucket on a rejoin without counting a new join', () => {
    expect(nextBucket(at('left', 'verified'), 'join')).toEqual({ status: 'verified', leftFrom: null, delta: { left: -1, verified: 1 } });
    expect(nextBucket(at('left', 'pending'), 'join')).toEqual({ status: 'pending', leftFrom: null, delta: { left: -1, pending: 1 } });
  });

  it.each(['verify', 'fake', 'leave'] as const)('has no %s without a join', (action) => expect(nextBucket(undefined, action)).toBeUndefined());

  it.each([
    [at('verified'), 'verify'],
    [at('verified'), 'fake'],
    [at('fake'), 'verify'],
    [at('fake'), 'leave'],
    [at('fake'), 'join'],
    [at('left', 'verified'), 'verify'],
    [at('left', 'verified'), 'leave'],
    [at('pending'), 'join'],
    [at('verified'), 'join'],
  ] as const)('refuses %o then %s', (state, action) => expect(nextBucket(state, action)).toBeUndefined());
});
