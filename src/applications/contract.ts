import { GuildParams, integerParam, SafeText, SnowflakeId, Timestamp } from '../core/contract.js';
import { RecordNumber } from '../moderation/contract.js';
import { z } from '../core/zod.js';

export const SUBMISSION_STATUSES = ['pending', 'interview', 'hold', 'accepted', 'denied', 'withdrawn'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** The values of a question's and an answer's `type` (the spec leaves them open; see docs/api-decisions.md). */
export const QUESTION_TYPES = ['short', 'paragraph', 'choice', 'number'] as const;

const QuestionType = z.string().openapi({ description: 'One of `short`, `paragraph`, `choice`, `number`; clients ignore values they do not know.' });

export const Form = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string(),
    open: z.boolean().openapi({ description: 'The toggle; the window is opensAt/closesAt.' }),
    opensAt: Timestamp.nullable(),
    closesAt: Timestamp.nullable(),
    questions: z.array(z.object({ id: z.string(), type: QuestionType, label: z.string(), required: z.boolean() })),
    submissions: z.object({
      total: z.number().int(),
      open: z.number().int().openapi({ description: 'Waiting for a decision: pending, interview and hold.' }),
    }),
  })
  .openapi('Form');

export const FormList = z.object({ items: z.array(Form) }).openapi('FormList');

export const Submission = z
  .object({
    number: z.number().int(),
    formId: z.number().int().nullable().openapi({ description: 'Null when the form was deleted.' }),
    formTitle: z.string().nullable(),
    userId: SnowflakeId,
    status: z.enum(SUBMISSION_STATUSES),
    votes: z.object({ up: z.number().int(), down: z.number().int() }),
    submittedAt: Timestamp.nullable(),
    decidedAt: Timestamp.nullable(),
    decidedBy: SnowflakeId.nullable().openapi({ description: 'Null when decided by the system or through the API.' }),
    reason: z.string().nullable(),
  })
  .openapi('Submission');

export const FailedActionType = z.enum(['roles', 'dm', 'announce', 'review']);

export const SubmissionDetail = Submission.extend({
  answers: z.array(z.object({ id: z.string(), type: QuestionType, label: z.string(), text: z.string() })),
  applicant: z
    .object({
      accountCreatedAt: Timestamp.nullable(),
      joinedAt: Timestamp.nullable(),
      roleIds: z.array(SnowflakeId),
      level: z.number().int().nullable(),
    })
    .openapi({ description: 'The applicant as they were when they submitted.' }),
  applying: z.boolean().openapi({ description: 'A decision is still being applied on the platform (roles, DM, announcement, review).' }),
  failedActions: z
    .array(z.object({ type: FailedActionType, error: z.string().nullable() }))
    .openapi({ description: 'Effects of the decision that failed for good (`roles`, `dm`, `announce`, `review`); the decision stands.' }),
}).openapi('SubmissionDetail');

export const SubmissionList = z
  .object({
    items: z.array(Submission),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `before` for the next page; null on the last page.' }),
  })
  .openapi('SubmissionList');

export const SubmissionsQuery = z.object({
  status: z
    .enum([...SUBMISSION_STATUSES, 'open', 'decided'])
    .optional()
    .openapi({ description: '`open` = pending, interview and hold; `decided` = accepted and denied; omitted: every status.' }),
  formId: integerParam({ min: 1, max: 2_147_483_647 }).optional(),
  userId: SnowflakeId.optional(),
  limit: integerParam({ min: 1, max: 100, default: 25 }),
  before: RecordNumber.optional().openapi({ description: 'Submissions numbered below this one.' }),
});

export const SubmissionParams = GuildParams.extend({ number: RecordNumber });

export const DecisionRequest = z
  .strictObject({
    decision: z.enum(['accepted', 'denied']),
    reason: SafeText.max(1000).nullable().optional().openapi({ description: 'Sent to the applicant by DM and shown in the review.' }),
  })
  .openapi('SubmissionDecisionRequest');

export type FormBody = z.infer<typeof Form>;
export type SubmissionBody = z.infer<typeof Submission>;
export type SubmissionDetailBody = z.infer<typeof SubmissionDetail>;
