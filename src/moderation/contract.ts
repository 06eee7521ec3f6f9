import type { CaseAction, CaseSource } from '../../db/moderation/cases.js';
import { MOD_ACTIONS } from './refusalRules.js';
import { GuildParams, integerParam, QueryBoolean, SafeText, safeHttpUrl, SnowflakeId, Timestamp } from '../core/contract.js';
import { z } from '../core/zod.js';

export const CASE_ACTIONS = ['warn', 'timeout', 'untimeout', 'kick', 'ban', 'tempban', 'softban', 'unban', 'note', 'purge'] as const satisfies readonly CaseAction[];
export const CASE_SOURCES = ['command', 'automod', 'escalation', 'antiraid', 'antinuke', 'console', 'api'] as const satisfies readonly CaseSource[];

/** Upper bounds of DESIGN's decisions: the platform's 28-day timeout, a week of deleted messages. */
export const MAX_TIMEOUT_SECONDS = 2_419_200;
export const MAX_TEMPBAN_SECONDS = 31_536_000;
export const MAX_DELETE_MESSAGE_SECONDS = 604_800;

export const ModCase = z
  .object({
    number: z.number().int(),
    action: z.enum(CASE_ACTIONS),
    userId: SnowflakeId,
    userTag: z.string().nullable(),
    moderatorId: SnowflakeId.openapi({ description: 'The key creator for API actions; the member who used the command for source `command`; the bot for escalations.' }),
    reason: z.string().nullable(),
    durationSeconds: z.number().int().nullable(),
    evidence: z.array(z.string()),
    source: z.enum(CASE_SOURCES),
    active: z.boolean().openapi({ description: 'A warning, timeout or tempban still running.' }),
    expiresAt: Timestamp.nullable(),
    resolvedAt: Timestamp.nullable().openapi({ description: 'When it expired or was revoked.' }),
    dmStatus: z.enum(['sent', 'failed', 'off']).nullable(),
    apiKey: z.object({ id: z.number().int().nullable(), name: z.string().nullable() }).nullable(),
    createdAt: Timestamp.nullable(),
  })
  .openapi('ModCase');

export const ModCaseEvent = z
  .object({
    type: z.string().openapi({ description: 'created, dm, escalated, expired, revoked, reason_edited, evidence_edited' }),
    actorId: SnowflakeId.nullable(),
    data: z.unknown(),
    createdAt: Timestamp.nullable(),
  })
  .openapi('ModCaseEvent');

export const ModCaseDetail = ModCase.extend({ events: z.array(ModCaseEvent).openapi({ description: 'Oldest first.' }) }).openapi(
  'ModCaseDetail',
);

export const ModCaseList = z
  .object({
    items: z.array(ModCase),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `before` for the next page; null on the last page.' }),
  })
  .openapi('ModCaseList');

/** A case or appeal number, in a path or as a `before` cursor. */
export const RecordNumber = integerParam({ min: 1, max: 999_999_999 });

export const ModCasesQuery = z.object({
  action: z.enum(CASE_ACTIONS).optional(),
  source: z.enum(CASE_SOURCES).optional(),
  userId: SnowflakeId.optional(),
  moderatorId: SnowflakeId.optional(),
  active: QueryBoolean.optional().openapi({ description: '1/true: only running warnings, timeouts and tempbans; 0/false: the others.' }),
  limit: integerParam({ min: 1, max: 100, default: 25 }),
  before: RecordNumber.optional().openapi({ description: 'Cases numbered below this one.' }),
});

export const CaseParams = GuildParams.extend({ number: RecordNumber });

const Reason = SafeText.min(1).max(500).nullable().optional().openapi({ description: 'Shown in the case, the mod log and the DM.' });
const Evidence = z
  .array(safeHttpUrl(500))
  .max(5)
  .default([])
  .openapi({ description: 'Up to 5 links.' });

export const WarnRequest = z
  .strictObject({ reason: SafeText.min(1).max(500).openapi({ description: 'Shown in the case, the mod log and the DM.' }), evidence: Evidence })
  .openapi('WarnRequest');

export const TimeoutRequest = z
  .strictObject({
    durationSeconds: z.number().int().min(60).max(MAX_TIMEOUT_SECONDS).openapi({ description: '60 s to 28 days.' }),
    reason: Reason,
    evidence: Evidence,
  })
  .openapi('TimeoutRequest');

export const BanRequest = z
  .strictObject({
    reason: Reason,
    evidence: Evidence,
    deleteMessageSeconds: z.number().int().min(0).max(MAX_DELETE_MESSAGE_SECONDS).default(0).openapi({
      description: "Delete the user's messages of this many seconds back (up to 7 days).",
    }),
    durationSeconds: z.number().int().min(60).max(MAX_TEMPBAN_SECONDS).nullable().optional().openapi({
      description: 'Makes it a tempban (case action `tempban`), lifted by the bot when it runs out; 60 s to 365 days.',
    }),
  })
  .openapi('BanRequest');

/** Untimeout, kick and unban: the body is optional. */
export const ModReasonRequest = z.strictObject({ reason: Reason, evidence: Evidence }).openapi('ModReasonRequest');

export const ModActionIdParams = GuildParams.extend({
  actionId: z.string().regex(/^mda_[A-Za-z0-9_-]{16}$/, 'must be a moderation action id such as mda_AbCdEfGhIjKlMnOp'),
});

export const ModAction = z
  .object({
    actionId: z.string(),
    action: z.enum(MOD_ACTIONS),
    userId: SnowflakeId,
    status: z.enum(['pending', 'running', 'done', 'failed']).openapi({
      description: '`pending` (accepted) → `running` (checked against the rules and applied by the bot) → `done` (with `caseNumber`) or `failed` (the refusal in `error`).',
    }),
    caseNumber: z.number().int().nullable().openapi({ description: 'When done.' }),
    error: z.string().nullable().openapi({
      description:
        'When failed: MODERATOR_MISSING_PERMISSION, BOT_MISSING_PERMISSIONS, HIERARCHY_HIGHER, INVALID_TARGET (the bot or ' +
        'the key creator), MEMBER_NOT_FOUND, NOT_BANNED, ALREADY_BANNED, NOT_TIMED_OUT or FEATURE_DISABLED.',
    }),
    requestedAt: Timestamp.nullable(),
  })
  .openapi('ModAction');

export type ModActionBody = z.infer<typeof ModAction>;
export type ModCaseBody = z.infer<typeof ModCase>;
