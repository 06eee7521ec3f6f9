import { describe, expect, it } from 'vitest';
import { XP_PER_MESSAGE, XP_PER_VOICE_MINUTE, xpAfterActivity, xpForActivity } from '../../../src/levels/activityXp.js';

describe('XP from activity', () => {
  it('is 20 XP a message and 10 XP a voice minute', () => {
    expect([XP_PER_MESSAGE, XP_PER_VOICE_MINUTE]).toEqual([20, 10]);
    expect(xpForActivity({ messages: 0, voiceMinutes: 0 })).toBe(0);
    expect(xpForActivity({ messages: 3, voiceMinutes: 2 })).toBe(80);
    expect(xpForActivity({ messages: 100_000, voiceMinutes: 100_000 })).toBe(3_000_000);
  });

  it('adds to the current XP and stops at the ceiling', () => {
    expect(xpAfterActivity(100, { messages: 1, voiceMinutes: 1 })).toBe(130);
    expect(xpAfterActivity(Number.MAX_SAFE_INTEGER - 5, { messages: 1, voiceMinutes: 0 })).toBe(Number.MAX_SAFE_INTEGER);
  });
});
