import { Refusal } from '../core/refusal.js';
/** A bot-origin invites action that does not apply; the admin CLI prints its code. */
export class InviteRefusal extends Refusal<'SELF_INVITE' | 'JOIN_NOT_ATTRIBUTED' | 'JOIN_NOT_PENDING' | 'SEASON_ACTIVE' | 'NO_ACTIVE_SEASON' | 'MILESTONE_NOT_FOUND'> {}
