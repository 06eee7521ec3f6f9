import { describe, expect, it } from 'vitest';
import { appealRefusal, type AppealStanding } from '../../../src/appeals/appealEligibility.js';

const now = new Date('2026-11-22T10:00:00Z');
const later = new Date(now.getTime() + 60_000);
const earlier = new Date(now.getTime() - 60_000);
const standing = (s: Partial<AppealStanding>): AppealStanding => ({ banned: true, appeals: [], now, ...s });

describe('who may file a ban appeal', () => {
  it('a banned user without appeals may', () => {
    expect(appealRefusal(standing({}))).toBeUndefined();
  });

  it('a user who is not banned may not, whatever their appeals', () => {
    expect(appealRefusal(standing({ banned: false }))).toEqual({ code: 'NOT_BANNED' });
    expect(appealRefusal(standing({ banned: false, appeals: [{ number: 1, status: 'approved', reappealAfter: null }] }))).toEqual({ code: 'NOT_BANNED' });
  });

  it.each(['open', 'question'] as const)('not while an appeal is %s', (status) => {
    const appeals = [
      { number: 2, status, reappealAfter: null },
      { number: 1, status: 'closed' as const, reappealAfter: null },
    ];
    expect(appealRefusal(standing({ appeals }))).toEqual({ code: 'APPEAL_ALREADY_OPEN', number: 2 });
  });

  it('not before the re-appeal cooldown of a rejection ends (the latest end counts), and again from that moment', () => {
    const until = new Date(now.getTime() + 3_600_000);
    const appeals = [
      { number: 2, status: 'rejected' as const, reappealAfter: later },
      { number: 1, status: 'rejected' as const, reappealAfter: until },
    ];
    expect(appealRefusal(standing({ appeals }))).toEqual({ code: 'REAPPEAL_COOLDOWN', until });
    expect(appealRefusal(standing({ appeals, now: until }))).toBeUndefined();
  });

  it('after a rejection whose cooldown ended, a closed appeal, or an approval (banned again later)', () => {
    expect(appealRefusal(standing({ appeals: [{ number: 1, status: 'rejected', reappealAfter: earlier }] }))).toBeUndefined();
    expect(appealRefusal(standing({ appeals: [{ number: 1, status: 'rejected', reappealAfter: null }] }))).toBeUndefined();
    expect(appealRefusal(standing({ appeals: [{ number: 1, status: 'closed', reappealAfter: null }] }))).toBeUndefined();
    expect(appealRefusal(standing({ appeals: [{ number: 1, status: 'approved', reappealAfter: null }] }))).toBeUndefined();
  });
});
