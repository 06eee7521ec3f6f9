import { describe, expect, it } from 'vitest';
import { appealDirectMessage } from '../../../src/appeals/appealMessages.js';

const base = { guildName: 'Cozy Corner', number: 7, approved: true, reason: null, inviteUrl: null, reappealAfter: null };
const after = new Date('2026-12-22T12:00:00.000Z');

describe('appealDirectMessage', () => {
  it.each([
    ['approved, nothing else', {}, 'Your ban appeal #7 in Cozy Corner was approved.'],
    ['rejected, nothing else', { approved: false }, 'Your ban appeal #7 in Cozy Corner was rejected.'],
    [
      'approved with reason and invite',
      { reason: 'Apology accepted', inviteUrl: 'https://discord.gg/abc123' },
      'Your ban appeal #7 in Cozy Corner was approved.\nReason: Apology accepted\nYou are unbanned. Join again: https://discord.gg/abc123',
    ],
    [
      'approved with an invite but no reason',
      { inviteUrl: 'https://discord.gg/abc123' },
      'Your ban appeal #7 in Cozy Corner was approved.\nYou are unbanned. Join again: https://discord.gg/abc123',
    ],
    [
      'rejected with reason and cooldown',
      { approved: false, reason: 'Not convincing', reappealAfter: after },
      'Your ban appeal #7 in Cozy Corner was rejected.\nReason: Not convincing\nYou can appeal again after <t:1797940800:f> (<t:1797940800:R>).',
    ],
    [
      'rejected with a cooldown only',
      { approved: false, reappealAfter: after },
      'Your ban appeal #7 in Cozy Corner was rejected.\nYou can appeal again after <t:1797940800:f> (<t:1797940800:R>).',
    ],
    ['an empty reason and an empty invite left out', { reason: '', inviteUrl: '' }, 'Your ban appeal #7 in Cozy Corner was approved.'],
    [
      'every part, in order',
      { reason: 'r', inviteUrl: 'https://x.test/i', reappealAfter: after },
      'Your ban appeal #7 in Cozy Corner was approved.\nReason: r\nYou are unbanned. Join again: https://x.test/i\nYou can appeal again after <t:1797940800:f> (<t:1797940800:R>).',
    ],
    ['a large appeal number as written', { number: 123456 }, 'Your ban appeal #123456 in Cozy Corner was approved.'],
  ])('%s', (_label, over, expected) => {
    expect(appealDirectMessage({ ...base, ...over }).embeds![0]!.description).toBe(expected);
  });

  it('is a card titled with the decision, green when approved and red when rejected, pinging no one', () => {
    expect(appealDirectMessage(base)).toEqual({
      content: '',
      embeds: [{ title: 'Ban appeal approved', description: 'Your ban appeal #7 in Cozy Corner was approved.', color: 0x57f287 }],
      mentions: { userIds: [], roleIds: [] },
    });
    expect(appealDirectMessage({ ...base, approved: false }).embeds![0]).toMatchObject({ title: 'Ban appeal rejected', color: 0xed4245 });
  });
});
