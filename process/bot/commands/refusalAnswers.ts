import { AppError } from '../../../src/core/errors.js';
import { FEATURE_LABELS, type Feature } from '../../../src/core/features.js';
import { Refusal } from '../../../src/core/refusal.js';

/** A feature that is off answers so (the API's 409 FEATURE_DISABLED / BANK_DISABLED, in words). */
export const featureOffAnswer = (feature: Feature) => `${FEATURE_LABELS[feature]} is turned off on this server.`;

/** The server is not one the service manages (never registered, or blocked by the operator). */
export const NOT_SERVED_ANSWER = 'This server does not use this bot’s features.';

/** Said when the invoker lacks the permissions a staff command requires. */
export const missingPermissionAnswer = (permission: string) => `You need the ${permission} permission to use this command.`;

/**
 * The sentence the member reads for a refusal of the use case (the API's typed errors and the areas' refusals),
 * written for the invoker ("you"); anything unknown keeps the use case's own sentence, never a code alone. Errors
 * that are not refusals are rethrown: the member gets the generic answer and the error is logged.
 */
export function refusalAnswer(err: unknown): string {
  if (err instanceof AppError) {
    switch (err.code) {
      case 'FEATURE_DISABLED':
        return err.message.replace(/^The (.+) feature is disabled on this server\.$/, '$1 is turned off on this server.');
      case 'BANK_DISABLED':
        return featureOffAnswer('bank');
      case 'SHOP_ITEM_NOT_FOUND':
        return 'There is no such item in the shop.';
      case 'SHOP_ITEM_DISABLED':
        return 'That item is not on sale right now.';
      case 'OUT_OF_STOCK':
        return 'That item is sold out.';
      case 'INSUFFICIENT_FUNDS':
        return `You cannot afford it: your balance is ${String(err.extra.balance)}.`;
      case 'REQUIREMENT_NOT_MET':
        return err.message.replace(/^The member does not meet/, 'You do not meet').replace(', the member is level', ', you are level');
      case 'PURCHASE_LIMIT_REACHED':
        return `You already have ${String(err.extra.perUserLimit)} of this item, the most one member may have.`;
      case 'MEMBER_NOT_FOUND':
        return 'That user is not a member of this server.';
      case 'BOT_ACCOUNT':
        return 'Bots take no part in this.';
      case 'CASE_NOT_FOUND':
        return 'There is no moderation case with that number.';
      case 'GIVEAWAY_NOT_FOUND':
        return 'There is no such giveaway in this server.';
      case 'INVALID_CHANNEL':
        return 'Giveaways are posted in a text or announcement channel of this server.';
      default:
        return err.message;
    }
  }
  if (err instanceof Refusal) return err.message;
  throw err;
}
