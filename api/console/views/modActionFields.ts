import type { ModActionAsked } from '../../../src/moderation/requestModAction.js';
import type { ModActionType } from '../../../src/moderation/refusalRules.js';

/** The action form's inputs (their ids, which the error summary links to). */
export const MOD_FIELDS = {
  action: 'mod-action',
  member: 'mod-member',
  duration: 'mod-duration',
  unit: 'mod-duration-unit',
  deleteMessages: 'mod-delete',
  reason: 'mod-reason',
  evidence: 'mod-evidence',
} as const;

/** Discord's own choices for a ban's deleted messages: none, the last hour, 6 hours, a day, 3 days, a week. */
export const DELETE_MESSAGE_CHOICES = [0, 3_600, 21_600, 86_400, 259_200, 604_800] as const;
/** The form's input as the API takes it: the action, the member's user id and the body its schema checked. */
export interface ModActionInput {
  action: ModActionType;
  userId: string;
  request: ModActionAsked['request'];
}
