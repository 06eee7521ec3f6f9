import { Refusal } from '../core/refusal.js';
import type { EntryRefusalCode } from './giveawayRules.js';
import type { RerollRefusalCode } from './rerollRules.js';

/** Why the bot refuses a bot-side giveaway action (an entry, a leave, a cancel); the admin CLI prints code and message. */
export class GiveawayRefusal extends Refusal<
  | EntryRefusalCode
  | 'GUILD_NOT_FOUND'
  | 'FEATURE_DISABLED'
  | 'BANK_DISABLED'
  | 'GIVEAWAY_NOT_FOUND'
  | 'GIVEAWAY_NOT_ACTIVE'
  | 'GIVEAWAY_NOT_OPEN'
  | 'MEMBER_NOT_FOUND'
  | 'NOT_ENTERED'
  | 'INSUFFICIENT_FUNDS'
  | 'BALANCE_LIMIT'
> {}

/** Why a reroll's draw refuses the request: the API answers the same code (422, or 409 GIVEAWAY_NOT_ENDED). */
export class RerollRefusal extends Refusal<RerollRefusalCode | 'GIVEAWAY_NOT_ENDED'> {}
