import { describe, expect, it } from 'vitest';
import { messageSide } from '../../../src/tickets/messageSide.js';

const ticket = { userId: '100000000000000001', members: [{ targetId: '100000000000000002', type: 'user' as const }, { targetId: '100000000000000003', type: 'role' as const }] };

describe('messageSide', () => {
  it('counts the opener and added users as user, anyone else as staff', () => {
    expect(messageSide(ticket, { authorId: '100000000000000001', system: false })).toBe('user');
    expect(messageSide(ticket, { authorId: '100000000000000002', system: false })).toBe('user');
    expect(messageSide(ticket, { authorId: '100000000000000004', system: false })).toBe('staff');
    // A role member entry is not a user: an id equal to the role id is still staff.
    expect(messageSide(ticket, { authorId: '100000000000000003', system: false })).toBe('staff');
  });

  it('counts system messages and messages without an author for neither side', () => {
    expect(messageSide(ticket, { authorId: '100000000000000001', system: true })).toBeNull();
    expect(messageSide(ticket, { authorId: null, system: false })).toBeNull();
  });
});
