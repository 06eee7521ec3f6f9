import type { z } from 'zod';
import { BanRequest, ModReasonRequest, TimeoutRequest, WarnRequest } from '../../../src/moderation/contract.js';
import { MOD_ACTIONS, type ModActionType } from '../../../src/moderation/refusalRules.js';
import type { ModActionAsked } from '../../../src/moderation/requestModAction.js';
import { FormRejection } from '../formFlow.js';
import type { FieldError } from '../views/formParts.js';
import { MOD_FIELDS, type ModActionInput } from '../views/modActionFields.js';
import { pickedMember } from './memberPick.js';

/** Actions whose effect on the member is asked to be confirmed first: they remove them or silence them. */
export const CONFIRMED_ACTIONS: ReadonlySet<ModActionType> = new Set(['timeout', 'kick', 'ban']);

/** Each action's body, checked by the API's own schema: the same limits as POST .../moderation/users/{userId}/{action}. */
const BODIES: Record<ModActionType, z.ZodType> = {
  warn: WarnRequest,
  timeout: TimeoutRequest,
  untimeout: ModReasonRequest,
  kick: ModReasonRequest,
  ban: BanRequest,
  unban: ModReasonRequest,
};

const DURATION_UNITS = { minutes: 60, hours: 3_600, days: 86_400 } as const;

const MESSAGES = {
  reason: 'Give a reason of up to 500 characters, without the character U+0000.',
  warnReason: 'Give a reason of 1 to 500 characters, without the character U+0000: the member is told it.',
  evidence: 'Give up to 5 links, one per line, each an http(s) address of up to 500 characters.',
  timeout: 'A timeout lasts 1 minute to 28 days.',
  tempban: 'A temporary ban lasts 1 minute to 365 days; leave the duration empty for a permanent ban.',
  deleteMessages: 'Choose how far back to delete messages: none, 1 hour, 6 hours, 1 day, 3 days or 7 days.',
} as const;

/** The duration in seconds, NaN when the amount or unit is not one: the schema then refuses it on the field. */
function durationOf(form: URLSearchParams): number | null {
  const amount = (form.get(MOD_FIELDS.duration) ?? '').trim();
  if (amount === '') return null;
  const unit = DURATION_UNITS[form.get(MOD_FIELDS.unit) as keyof typeof DURATION_UNITS];
  return /^\d{1,9}$/.test(amount) && unit ? Number(amount) * unit : Number.NaN;
}

function bodyOf(action: ModActionType, form: URLSearchParams) {
  const reason = (form.get(MOD_FIELDS.reason) ?? '').trim();
  const evidence = (form.get(MOD_FIELDS.evidence) ?? '').split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const body: Record<string, unknown> = { reason: reason === '' ? (action === 'warn' ? undefined : null) : reason, evidence };
  if (action === 'timeout') body.durationSeconds = durationOf(form) ?? undefined;
  if (action === 'ban') {
    body.durationSeconds = durationOf(form);
    body.deleteMessageSeconds = Number(form.get(MOD_FIELDS.deleteMessages) ?? '0');
  }
  return body;
}

const FIELD_OF: Record<string, { field: string; message: (action: ModActionType) => string }> = {
  reason: { field: MOD_FIELDS.reason, message: (a) => (a === 'warn' ? MESSAGES.warnReason : MESSAGES.reason) },
  evidence: { field: MOD_FIELDS.evidence, message: () => MESSAGES.evidence },
  durationSeconds: { field: MOD_FIELDS.duration, message: (a) => (a === 'timeout' ? MESSAGES.timeout : MESSAGES.tempban) },
  deleteMessageSeconds: { field: MOD_FIELDS.deleteMessages, message: () => MESSAGES.deleteMessages },
};

/**
 * The action form's input as the API takes it: the action, the member's user id and the body its schema checks
 * (fields an action does not take are left out). Anything wrong is a 400 INVALID_INPUT naming each field to fix.
 */
export function modActionInput(form: URLSearchParams): ModActionInput {
  const errors: FieldError[] = [];
  const action = form.get(MOD_FIELDS.action) as ModActionType;
  const known = (MOD_ACTIONS as readonly string[]).includes(action);
  if (!known) errors.push({ field: MOD_FIELDS.action, message: `Choose an action: ${MOD_ACTIONS.join(', ')}.` });
  const userId = pickedMember(form, MOD_FIELDS.member, true);
  if (typeof userId !== 'string') errors.push(userId);
  let request: ModActionAsked['request'] = {};
  if (known) {
    const parsed = BODIES[action].safeParse(bodyOf(action, form));
    if (parsed.success) request = parsed.data as ModActionAsked['request'];
    else {
      const fields = new Set(parsed.error.issues.map((i) => String(i.path[0])));
      for (const [key, { field, message }] of Object.entries(FIELD_OF)) if (fields.has(key)) errors.push({ field, message: message(action) });
    }
  }
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { action, userId: userId as string, request };
}
