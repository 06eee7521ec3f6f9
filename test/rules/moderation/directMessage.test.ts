import { describe, expect, it } from 'vitest';
import { moderationDirectMessage } from '../../../src/moderation/directMessage.js';

const until = new Date('2026-11-23T08:30:00.000Z');

describe('moderationDirectMessage', () => {
  it.each([
    ['warn', 'You were warned in Cozy Corner.'],
    ['timeout', 'You were timed out in Cozy Corner.'],
    ['untimeout', 'Your timeout was lifted in Cozy Corner.'],
    ['kick', 'You were kicked from Cozy Corner.'],
    ['ban', 'You were banned from Cozy Corner.'],
    ['tempban', 'You were temporarily banned from Cozy Corner.'],
    ['unban', 'You were unbanned from Cozy Corner.'],
  ] as const)('announces a %s without reason or end as one line', (action, expected) => {
    expect(moderationDirectMessage(action, 'Cozy Corner', null, null)).toBe(expected);
  });

  it.each([
    ['warn', 'Spamming links', null, 'You were warned in Cozy Corner.\nReason: Spamming links'],
    [
      'timeout',
      'Cool down',
      until,
      'You were timed out in Cozy Corner.\nReason: Cool down\nUntil: 2026-11-23T08:30:00.000Z',
    ],
    ['timeout', null, until, 'You were timed out in Cozy Corner.\nUntil: 2026-11-23T08:30:00.000Z'],
    ['tempban', 'Raid', until, 'You were temporarily banned from Cozy Corner.\nReason: Raid\nUntil: 2026-11-23T08:30:00.000Z'],
    // An empty reason is left out rather than shown as "Reason: ".
    ['kick', '', null, 'You were kicked from Cozy Corner.'],
    ['ban', 'Line one\nline two', null, 'You were banned from Cozy Corner.\nReason: Line one\nline two'],
  ] as const)('%s with reason %j and end %s', (action, reason, expiresAt, expected) => {
    expect(moderationDirectMessage(action, 'Cozy Corner', reason, expiresAt)).toBe(expected);
  });

  it('renders the end in UTC whatever the time zone of the date given', () => {
    const offset = new Date('2026-11-23T09:30:00.000+01:00');
    expect(moderationDirectMessage('timeout', 'G', null, offset)).toBe('You were timed out in G.\nUntil: 2026-11-23T08:30:00.000Z');
  });

  it('inserts the server name as given', () => {
    expect(moderationDirectMessage('warn', '', null, null)).toBe('You were warned in .');
    expect(moderationDirectMessage('kick', '**Bold** $& {x}', null, null)).toBe('You were kicked from **Bold** $& {x}.');
  });
});
