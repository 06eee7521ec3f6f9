import type { z } from 'zod';
import { findHumanMember } from '../../../src/core/members.js';
import { XpChangeRequest } from '../../../src/levels/contract.js';
import type { AppDeps } from '../../context.js';
import { FormRejection } from '../formFlow.js';
import type { FieldError } from '../views/formParts.js';
import { XP_FIELDS } from '../views/levelXpPages.js';

export type XpChangeInput = z.infer<typeof XpChangeRequest>;

/**
 * The XP change form's input (from the form, or from the confirmation page's query) checked by the API's own schema
 * (XpChangeRequest), or a 400 INVALID_INPUT naming each field to fix.
 */
export function xpChangeOf(form: URLSearchParams): XpChangeInput {
  const reason = (form.get(XP_FIELDS.reason) ?? '').trim();
  const amount = (form.get(XP_FIELDS.amount) ?? '').trim();
  const parsed = XpChangeRequest.safeParse({
    type: form.get(XP_FIELDS.type),
    unit: form.get(XP_FIELDS.unit),
    amount: /^\d{1,10}$/.test(amount) ? Number(amount) : Number.NaN,
    reason: reason === '' ? null : reason,
  });
  if (parsed.success) return parsed.data;
  const fields: Record<string, FieldError> = {
    type: { field: XP_FIELDS.type, message: 'Choose to add, remove or set.' },
    unit: { field: XP_FIELDS.unit, message: 'Choose XP or levels.' },
    amount: { field: XP_FIELDS.amount, message: 'The amount is a whole number from 0 to 2,000,000,000.' },
    reason: { field: XP_FIELDS.reason, message: 'Give a reason of at most 200 characters, without control characters.' },
  };
  const wrong = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  throw new FormRejection(400, 'INVALID_INPUT', [...wrong].map((k) => fields[k]!));
}

/** The form's values of a checked change: what the confirmation carries and what Cancel gives back to the form. */
export function xpChangeValues(change: XpChangeInput): URLSearchParams {
  return new URLSearchParams({ [XP_FIELDS.type]: change.type, [XP_FIELDS.amount]: String(change.amount), [XP_FIELDS.unit]: change.unit, [XP_FIELDS.reason]: change.reason ?? '' });
}

/** The member as the API's route checks them: 404 MEMBER_NOT_FOUND, 422 BOT_ACCOUNT, on the form. */
export async function requireXpMember(deps: AppDeps, guildId: string, userId: string): Promise<void> {
  const found = await findHumanMember(deps.platform, guildId, userId);
  if (!('refusal' in found)) return;
  const [status, message] = found.refusal === 'MEMBER_NOT_FOUND' ? [404, 'This user is not a member of the server.'] : [422, 'This is a bot account: bots earn no XP.'];
  throw new FormRejection(status, found.refusal, [{ field: XP_FIELDS.type, message }]);
}
