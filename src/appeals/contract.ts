import { GuildParams, integerParam, SafeText, SnowflakeId, Timestamp } from '../core/contract.js';
import { RecordNumber } from '../moderation/contract.js';
import { z } from '../core/zod.js';

export const APPEAL_STATUSES = ['open', 'question', 'approved', 'rejected', 'closed'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

export const Appeal = z
  .object({
    number: z.number().int(),
    userId: SnowflakeId,
    userTag: z.string().nullable(),
    status: z.enum(APPEAL_STATUSES).openapi({ description: '`question`: staff asked the appellant something and wait for the answer.' }),
    banCaseNumber: z.number().int().nullable(),
    claimedBy: SnowflakeId.nullable(),
    decidedBy: SnowflakeId.nullable().openapi({ description: 'Null when decided by the system or through the API.' }),
    decidedAt: Timestamp.nullable(),
    reason: z.string().nullable(),
    createdAt: Timestamp.nullable(),
    lastActivityAt: Timestamp.nullable(),
  })
  .openapi('Appeal');

export const AppealDetail = Appeal.extend({
  banReason: z.string().nullable(),
  answers: z.array(z.object({ id: z.string(), type: z.string(), label: z.string(), value: z.unknown() })),
  messages: z
    .array(z.object({ author: z.enum(['user', 'staff']), authorId: SnowflakeId.nullable(), text: z.string(), createdAt: Timestamp.nullable() }))
    .openapi({ description: 'The conversation the appellant sees, oldest first; internal staff notes are never included.' }),
  applying: z.boolean().openapi({ description: 'A decision is still being applied on the platform (unban, invite, DM).' }),
  failedAction: z
    .object({ type: z.enum(['unban', 'invite', 'dm']), error: z.string().nullable() })
    .nullable()
    .openapi({ description: 'The step of the decision that failed; the decision itself stands.' }),
}).openapi('AppealDetail');

export const AppealList = z
  .object({
    items: z.array(Appeal),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `before` for the next page; null on the last page.' }),
  })
  .openapi('AppealList');

export const AppealsQuery = z.object({
  status: z
    .enum([...APPEAL_STATUSES, 'all'])
    .default('open')
    .openapi({ description: '`open` (default) means open and question: every appeal waiting for a decision; `all` every status.' }),
  userId: SnowflakeId.optional(),
  limit: integerParam({ min: 1, max: 100, default: 25 }),
  before: RecordNumber.optional().openapi({ description: 'Appeals numbered below this one.' }),
});

export const AppealParams = GuildParams.extend({ number: RecordNumber });

export const AppealDecisionRequest = z
  .strictObject({
    reason: SafeText.min(1).max(1000).nullable().optional().openapi({ description: 'Sent to the appellant and shown in the conversation.' }),
  })
  .openapi('AppealDecisionRequest');

export type AppealBody = z.infer<typeof Appeal>;
export type AppealDetailBody = z.infer<typeof AppealDetail>;

/** The answers of the bot's appeal form as a filing carries them (`simulate appeal-file --answers`). */
export const AppealAnswersInput = z
  .array(
    z.strictObject({
      id: z.string().min(1).max(100),
      type: z.string().min(1).max(50),
      label: z.string().min(1).max(500),
      value: z.unknown().refine((v) => v !== undefined, 'a value is required (null for none)'),
    }),
  )
  .min(1)
  .max(25)
  .refine((answers) => new Set(answers.map((a) => a.id)).size === answers.length, 'answer ids must be unique');
