import type { InviteJoinStatus } from '../../db/invites/tables.js';

/** What changes an inviter's buckets: a join through their code, staff's verdict on it, a leave, a rejoin. */
export type BucketAction = 'join' | 'verify' | 'fake' | 'leave';

export type BucketCounter = 'pending' | 'verified' | 'fake' | 'left' | 'total';

export interface BucketTransition {
  status: InviteJoinStatus;
  leftFrom: 'pending' | 'verified' | null;
  /** Signed changes of the inviter's counters. */
  delta: Partial<Record<BucketCounter, number>>;
}

export interface BucketState {
  status: InviteJoinStatus;
  leftFrom: 'pending' | 'verified' | null;
}

/**
 * The bucket rules: pending -> verified | fake; pending or verified -> left; a rejoin reactivates the status the
 * member left from (through whichever code: the join stays with its first inviter). A fake join stays fake when the
 * member leaves. `undefined` means the action does not apply (the caller refuses it).
 */
export function nextBucket(current: BucketState | undefined, action: BucketAction): BucketTransition | undefined {
  if (!current) return action === 'join' ? { status: 'pending', leftFrom: null, delta: { pending: 1, total: 1 } } : undefined;
  switch (action) {
    case 'join':
      if (current.status !== 'left' || !current.leftFrom) return undefined;
      return { status: current.leftFrom, leftFrom: null, delta: { left: -1, [current.leftFrom]: 1 } };
    case 'verify':
    case 'fake': {
      if (current.status !== 'pending') return undefined;
      const status = action === 'verify' ? 'verified' : 'fake';
      return { status, leftFrom: null, delta: { pending: -1, [status]: 1 } };
    }
    case 'leave':
      if (current.status !== 'pending' && current.status !== 'verified') return undefined;
      return { status: 'left', leftFrom: current.status, delta: { [current.status]: -1, left: 1 } };
  }
}
