import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { AppError } from '../../../src/core/errors.js';
import { GiveawayStartRequest, type GiveawayStartBody } from '../../../src/giveaways/contract.js';
import { MAX_DURATION_SECONDS, MIN_DURATION_SECONDS } from '../../../src/giveaways/giveawayRules.js';
import { FormRejection } from '../formFlow.js';
import type { FieldError } from '../views/formParts.js';
import { bonusField, GIVEAWAY_FIELDS as F, utcInputValue } from '../views/giveawayFields.js';

/** What to fix in each field, in the spec's bounds; keyed by the body's path (requirements by their own key). */
const MESSAGES: Record<string, [field: string, message: string]> = {
  channelId: [F.channel, 'Pick a text or announcement channel of this server.'],
  prize: [F.prize, 'Give a prize of 1 to 200 characters, without control characters.'],
  description: [F.description, 'Give a description of up to 1,000 characters, without control characters.'],
  winners: [F.winners, 'Give a whole number of winners from 1 to 50.'],
  pingRoleId: [F.pingRole, 'Pick a role of this server, or no ping.'],
  roleIds: [F.roles, 'Pick up to 20 roles of this server.'],
  roleMode: [F.roleMode, 'Choose whether one required role is enough or every one is needed.'],
  blockedRoleIds: [F.blockedRoles, 'Pick up to 20 roles of this server.'],
  minAccountAgeDays: [F.accountAge, 'Give a whole number of days from 0 to 3,650.'],
  minMemberDays: [F.memberDays, 'Give a whole number of days from 0 to 3,650.'],
  minLevel: [F.minLevel, 'Give a whole number from 0 to 1,000.'],
  entryCost: [F.entryCost, 'Give a whole number from 0 to 1,000,000,000.'],
  bonusRoles: [F.bonus, 'Give 2 to 10 entries, to at most 10 roles.'],
};
const END_FORMAT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2})?$/;

/** A whole number as the form sent it: empty is the default (undefined), anything else not a whole number fails the schema. */
const wholeNumber = (raw: string | null) => (raw === null || raw.trim() === '' ? undefined : /^-?\d{1,12}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN);

/** The end as the form sent it, read as UTC (the page says so): an ISO timestamp, or undefined when it is no date and time. */
function endOf(raw: string): string | undefined {
  const m = END_FORMAT.exec(raw.trim());
  if (!m) return undefined;
  const at = new Date(`${m[1]}${m[2] ?? ':00'}Z`);
  // A date that does not exist (30 February) rolls over in Date: refused rather than moved.
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(`${m[1]}${m[2] ?? ':00'}`) ? at.toISOString() : undefined;
}

/**
 * The start form as the API's start body, checked by the API's own schema (GiveawayStartRequest), or a 400
 * INVALID_INPUT naming each field to fix. Roles must be the server's (the pickers offer no other); the end is read
 * as UTC; the giveaway starts now.
 */
export function startBodyOf(form: URLSearchParams, directory: ServerDirectory): GiveawayStartBody {
  const errors: FieldError[] = [];
  const roleIds = new Set(directory.roles.map((r) => r.id));
  const bonusRoles = directory.roles.flatMap((r) => {
    const entries = wholeNumber(form.get(bonusField(r.id)));
    return entries === undefined ? [] : [{ roleId: r.id, entries }];
  });
  const requirements = {
    roleIds: form.getAll(F.roles),
    roleMode: form.get(F.roleMode) ?? 'any',
    blockedRoleIds: form.getAll(F.blockedRoles),
    minAccountAgeDays: wholeNumber(form.get(F.accountAge)),
    minMemberDays: wholeNumber(form.get(F.memberDays)),
    minLevel: wholeNumber(form.get(F.minLevel)),
    entryCost: wholeNumber(form.get(F.entryCost)),
    bonusRoles,
  };
  for (const key of ['roleIds', 'blockedRoleIds'] as const) {
    if (requirements[key].some((id) => !roleIds.has(id))) errors.push({ field: MESSAGES[key]![0], message: MESSAGES[key]![1] });
  }
  const pingRoleId = form.get(F.pingRole) || null;
  if (pingRoleId !== null && !roleIds.has(pingRoleId)) errors.push({ field: F.pingRole, message: MESSAGES.pingRoleId![1] });
  const endsAt = endOf(form.get(F.endsAt) ?? '');
  if (endsAt === undefined) errors.push({ field: F.endsAt, message: 'Give the end as a date and time in UTC, like 2026-12-01T18:00.' });
  const description = (form.get(F.description) ?? '').trim();
  const parsed = GiveawayStartRequest.safeParse({
    channelId: form.get(F.channel) ?? '',
    prize: (form.get(F.prize) ?? '').trim(),
    description: description === '' ? null : description,
    winners: wholeNumber(form.get(F.winners)),
    // A placeholder end when it did not read: its own error is above, and the schema still checks every other field.
    endsAt: endsAt ?? new Date(0).toISOString(),
    pingRoleId,
    requirements,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] === 'requirements' ? issue.path[1] : issue.path[0]);
      const [field, message] = MESSAGES[key] ?? [undefined, issue.message];
      if (!errors.some((e) => e.field === field)) errors.push({ field, message });
    }
  }
  if (errors.length > 0 || !parsed.success) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return parsed.data;
}

/**
 * The start use case's refusals of a body that validated (src/giveaways/createGiveaway.ts checkGiveawayStart), on
 * the field they concern with their code: 422 INVALID_SCHEDULE on the end (said against the injected clock's now),
 * 422 INVALID_CHANNEL on the channel.
 */
export function onTheStartForm(body: GiveawayStartBody, now: Date) {
  return (err: unknown): never => {
    if (err instanceof AppError && err.code === 'INVALID_SCHEDULE') {
      const seconds = (new Date(body.endsAt!).getTime() - now.getTime()) / 1000;
      const message =
        seconds <= 0
          ? `This time has passed: it is now ${utcInputValue(now).replace('T', ' ')} UTC.`
          : seconds < MIN_DURATION_SECONDS
            ? 'End the giveaway at least 1 minute from now.'
            : `End the giveaway at most ${MAX_DURATION_SECONDS / 86_400} days from now.`;
      throw new FormRejection(422, err.code, [{ field: F.endsAt, message }]);
    }
    if (err instanceof AppError && err.code === 'INVALID_CHANNEL') {
      throw new FormRejection(422, err.code, [{ field: F.channel, message: 'This channel is not a text or announcement channel of this server (any more): pick another.' }]);
    }
    throw err;
  };
}
