import type { FormRecord } from '../../db/applications/forms.js';
import type { SubmissionRecord } from '../../db/applications/submissions.js';
import { toSubmissionDetailBody } from '../../src/applications/applicationViews.js';
import { QUESTION_TYPES } from '../../src/applications/contract.js';
import { createForm } from '../../src/applications/createForm.js';
import { changeSubmissionStatus, voteOnSubmission } from '../../src/applications/reviewSubmission.js';
import { postReviewMessage } from '../../src/applications/postReviewMessage.js';
import { submitApplication } from '../../src/applications/submitApplication.js';
import { PlatformUnavailableError, type Platform } from '../../src/core/platform.js';
import { z } from '../../src/core/zod.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { jsonArg, oneOf, optional, snowflake, text, wholeNumber } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminCommand, type AdminContext } from './command.js';
import { usageError } from './errors.js';
import { requireGuild } from './requireGuild.js';

// Application forms and submissions as the bot handles them: staff create a form in the console, a user
// submits it (applications.submitted, with the applicant snapshot taken now), staff vote and move it to
// interview or hold, the applicant withdraws it. Decisions are made through the API (POST .../decision).

const NUMBER = { number: { type: 'string', placeholder: 'N', required: true, help: 'the submission number' } } as const;

const Questions = z
  .array(z.strictObject({ id: z.string().min(1).max(100), type: z.enum(QUESTION_TYPES), label: z.string().min(1).max(500), required: z.boolean().default(true) }))
  .min(1)
  .max(25);
const Answers = z.array(z.strictObject({ id: z.string().min(1).max(100), text: z.string().max(4000) })).max(25);

function instant(value: string, flag: string): Date {
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at.getTime())) throw usageError('INVALID_ARGUMENT', `--${flag} must be an ISO 8601 time, got "${value}".`);
  return at;
}

const ids = (value: string, flag: string) => value.split(',').filter(Boolean).map((v) => snowflake(v.trim(), flag));

const formJson = (f: FormRecord) => ({
  id: f.id,
  title: f.title,
  description: f.description,
  open: f.open,
  opensAt: f.opensAt?.toISOString() ?? null,
  closesAt: f.closesAt?.toISOString() ?? null,
  questions: f.questions,
  acceptRoleIds: f.acceptRoleIds,
  removeRoleIds: f.removeRoleIds,
  reapplyCooldownSeconds: f.reapplyCooldownSeconds,
  announceChannelId: f.announceChannelId,
  reviewChannelId: f.reviewChannelId,
});

const submissionJson = (s: SubmissionRecord) => toSubmissionDetailBody(s);

/** The review message, posted once the submission committed; an unreachable platform leaves it to the decision. */
async function postReviewAfterCommit(ctx: AdminContext, platform: Platform, guildId: string, number: number) {
  try {
    return await postReviewMessage({ db: ctx.db, platform }, guildId, number);
  } catch (err) {
    if (err instanceof PlatformUnavailableError) return undefined;
    throw err;
  }
}

export const applicationSimulateCommands: AdminCommand[] = [
  defineCommand({
    name: 'form-create',
    summary: 'staff create an application form in the console (last in console order)',
    flags: {
      ...GUILD_FLAG,
      title: { type: 'string', placeholder: 'TITLE', required: true, help: 'the form title (up to 100 characters)' },
      description: { type: 'string', placeholder: 'TEXT', help: 'what the form is for (up to 1000 characters)' },
      questions: {
        type: 'string',
        placeholder: 'JSON',
        required: true,
        help: `1 to 25 questions: [{"id":"why","type":"paragraph","label":"Why?","required":true}] (types ${QUESTION_TYPES.join(', ')})`,
      },
      closed: { type: 'boolean', help: 'create it with the open toggle off' },
      'opens-at': { type: 'string', placeholder: 'ISO_TIME', help: 'the window opens then' },
      'closes-at': { type: 'string', placeholder: 'ISO_TIME', help: 'the window closes then' },
      'accept-roles': { type: 'string', placeholder: 'ROLE_ID,...', help: 'roles given to accepted applicants' },
      'remove-roles': { type: 'string', placeholder: 'ROLE_ID,...', help: 'roles taken from accepted applicants' },
      'reapply-cooldown': { type: 'string', placeholder: 'SECONDS', help: 'wait after a denial before applying again (default 604800, 7 days)' },
      'announce-channel': { type: 'string', placeholder: 'CHANNEL_ID', help: 'where accepted applicants are announced' },
      'review-channel': { type: 'string', placeholder: 'CHANNEL_ID', help: 'where staff review submissions' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const draft = {
        guildId,
        title: text(flags.title, 'title', 100),
        description: optional(flags.description, (v) => text(v, 'description', 1000)) ?? '',
        open: !flags.closed,
        opensAt: optional(flags['opens-at'], (v) => instant(v, 'opens-at')) ?? null,
        closesAt: optional(flags['closes-at'], (v) => instant(v, 'closes-at')) ?? null,
        questions: jsonArg(flags.questions, 'questions', Questions, 'an array of 1 to 25 {id, type, label, required}'),
        acceptRoleIds: optional(flags['accept-roles'], (v) => ids(v, 'accept-roles')) ?? [],
        removeRoleIds: optional(flags['remove-roles'], (v) => ids(v, 'remove-roles')) ?? [],
        reapplyCooldownSeconds: optional(flags['reapply-cooldown'], (v) => (v === '0' ? 0 : wholeNumber(v, 'reapply-cooldown', 1, 31_536_000))) ?? 7 * 86_400,
        announceChannelId: optional(flags['announce-channel'], (v) => snowflake(v, 'announce-channel')) ?? null,
        reviewChannelId: optional(flags['review-channel'], (v) => snowflake(v, 'review-channel')) ?? null,
        at: ctx.clock.now(),
        actor: operatorActor(ctx, flags.operator),
      };
      await requireGuild(ctx.db, guildId);
      const form = await ctx.db.transaction().execute((trx) => createForm(trx, draft));
      return { json: formJson(form), text: [`Form ${form.id} "${form.title}" created in guild ${guildId} with ${form.questions.length} questions.`] };
    },
  }),
  defineCommand({
    name: 'application-submit',
    summary: 'a user submits an application form with their answers: applications.submitted (applicant snapshot taken now), review message posted',
    flags: {
      ...GUILD_FLAG,
      form: { type: 'string', placeholder: 'FORM_ID', required: true, help: 'the form' },
      user: { type: 'string', placeholder: 'USER_ID', required: true, help: 'the applicant' },
      answers: { type: 'string', placeholder: 'JSON', required: true, help: 'the answers: [{"id":"why","text":"..."}]' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const formId = wholeNumber(flags.form, 'form', 1, 2_147_483_647);
      const userId = snowflake(flags.user, 'user');
      const answers = jsonArg(flags.answers, 'answers', Answers, 'an array of up to 25 {id, text}');
      await requireGuild(ctx.db, guildId);
      const platform = createLocalPlatform(ctx.db);
      const member = await platform.getMember(guildId, userId);
      const { submission, events } = await ctx.db
        .transaction()
        .execute((trx) => submitApplication(trx, { guildId, formId, userId, member, answers, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }));
      const fanout = await ctx.startFanouts(events);
      const review = await postReviewAfterCommit(ctx, platform, guildId, submission.number);
      return {
        json: { ...submissionJson(submission), events: events.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt, data: e.data })), fanout },
        text: [
          `User ${userId} submitted application ${submission.number} to form ${formId} in guild ${guildId}.`,
          review
            ? `Review message ${review.messageId} posted in channel ${review.channelId}.`
            : 'No review message: the form has no review channel, or the platform is unreachable (the decision posts it).',
          ...events.map((e) => `Event ${e.type} ${e.id}: fan-out ${fanout === 'started' ? 'started (webhooks go out now)' : "left to the worker's start relay"}.`),
        ],
      };
    },
  }),
  defineCommand({
    name: 'application-vote',
    summary: 'a staff member votes up or down on an open submission (one vote each; a new vote replaces theirs)',
    flags: {
      ...GUILD_FLAG,
      ...NUMBER,
      voter: { type: 'string', placeholder: 'USER_ID', required: true, help: 'the staff member voting' },
      vote: { type: 'string', placeholder: 'up|down', required: true, help: 'up or down' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const number = wholeNumber(flags.number, 'number', 1, 999_999_999);
      const voterId = snowflake(flags.voter, 'voter');
      const vote = oneOf(flags.vote, 'vote', ['up', 'down'] as const);
      await requireGuild(ctx.db, guildId);
      const submission = await ctx.db
        .transaction()
        .execute((trx) => voteOnSubmission(trx, { guildId, number, voterId, vote, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }));
      return {
        json: submissionJson(submission),
        text: [`${voterId} voted ${vote} on application ${number}: ${submission.votesUp} up, ${submission.votesDown} down.`],
      };
    },
  }),
  defineCommand({
    name: 'application-status',
    summary: 'staff move an open submission to interview or hold, or the applicant withdraws it',
    flags: {
      ...GUILD_FLAG,
      ...NUMBER,
      status: { type: 'string', placeholder: 'interview|hold|withdrawn', required: true, help: 'the new status' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const number = wholeNumber(flags.number, 'number', 1, 999_999_999);
      const status = oneOf(flags.status, 'status', ['interview', 'hold', 'withdrawn'] as const);
      await requireGuild(ctx.db, guildId);
      const submission = await ctx.db
        .transaction()
        .execute((trx) => changeSubmissionStatus(trx, { guildId, number, status, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }));
      return { json: submissionJson(submission), text: [`Application ${number} in guild ${guildId} is now ${submission.status}.`] };
    },
  }),
];
