import { integerParam, SafeText, SnowflakeId, Timestamp } from '../core/contract.js';
import { z } from '../core/zod.js';

export const LEVEL_CURVE_DESCRIPTION =
  'Level curve: going from level L to L+1 takes 5·L² + 50·L + 100 XP (0→1: 100 XP, 1→2: 155, 10→11: 1,100); ' +
  'the XP for a level is the sum of the steps below it. XP never goes below 0 and is capped at 2^53−1.';

export const LevelMember = z
  .object({
    userId: SnowflakeId,
    xp: z.number().int(),
    level: z.number().int(),
    xpIntoLevel: z.number().int(),
    xpForNext: z.number().int(),
    progress: z.number().min(0).max(1),
    messages: z.number().int(),
    voiceMinutes: z.number().int(),
    streak: z.number().int(),
    bestStreak: z.number().int(),
    rank: z.number().int().nullable().openapi({ description: 'By XP, ties by user id; null without XP.' }),
    hidden: z.boolean(),
    lastXpAt: Timestamp.nullable(),
  })
  .openapi('LevelMember', { description: LEVEL_CURVE_DESCRIPTION });

export const LevelRow = z
  .object({
    rank: z.number().int(),
    userId: SnowflakeId.nullable().openapi({ description: 'Null for members who hid themselves; they keep their rank.' }),
    hidden: z.boolean(),
    xp: z.number().int(),
    level: z.number().int(),
    messages: z.number().int(),
    voiceMinutes: z.number().int(),
  })
  .openapi('LevelRow');

export const LevelLeaderboardQuery = z.object({
  limit: integerParam({ min: 1, max: 100, default: 25 }),
  cursor: integerParam({ min: 0, max: 10_000_000, default: 0 }),
});

export const LevelLeaderboard = z
  .object({
    items: z.array(LevelRow),
    total: z.number().int().openapi({ description: 'Members with XP.' }),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('LevelLeaderboard');

export const XpChangeRequest = z
  .strictObject({
    type: z.enum(['add', 'remove', 'set']).openapi({ description: '`add`/`remove` are relative; `set` is the new total.' }),
    amount: z.number().int().min(0).max(2_000_000_000),
    unit: z.enum(['xp', 'levels']).default('xp').openapi({ description: 'With `levels` the XP earned inside the current level is kept.' }),
    reason: SafeText.max(200).nullable().optional().openapi({ description: 'Shown in the audit log.' }),
  })
  .openapi('XpChangeRequest');

export const XpChangeIdParams = z.object({
  guildId: SnowflakeId,
  changeId: z.string().regex(/^xpc_[A-Za-z0-9_-]{16}$/, 'must be an XP change id such as xpc_AbCdEfGhIjKlMnOp'),
});

export const XpChange = z
  .object({
    changeId: z.string(),
    userId: SnowflakeId,
    type: z.enum(['add', 'remove', 'set']),
    unit: z.enum(['xp', 'levels']),
    amount: z.number().int(),
    status: z.enum(['pending', 'processing', 'done', 'failed']).openapi({
      description: '`pending` (accepted) → `processing` (the bot is applying it) → `done` (with `result`) or `failed` (with `error`).',
    }),
    result: z
      .object({ previousLevel: z.number().int(), level: z.number().int(), xp: z.number().int() })
      .nullable()
      .openapi({ description: 'When done.' }),
    error: z.string().nullable().openapi({ description: 'When failed: MEMBER_NOT_FOUND, BOT_ACCOUNT or FEATURE_DISABLED.' }),
    createdAt: Timestamp,
    processedAt: Timestamp.nullable(),
  })
  .openapi('XpChange');

export type XpChangeBody = z.infer<typeof XpChange>;
