import { integerParam, SafeText, SnowflakeId, Timestamp } from '../core/contract.js';
import { z } from '../core/zod.js';

export const MAX_BONUS_AMOUNT = 100_000;

const rank = z.number().int().nullable().openapi({ description: 'Null when not ranked (no invites). Ties share a rank.' });

export const InviteSeason = z
  .object({
    id: z.number().int(),
    number: z.number().int(),
    name: z.string().nullable(),
    startsAt: Timestamp.nullable(),
    endsAt: Timestamp.nullable(),
    invites: z.number().int(),
    rank,
  })
  .openapi('InviteMemberSeason');

export const InviteMember = z
  .object({
    userId: SnowflakeId,
    invites: z.number().int().openapi({ description: 'verified + bonus, never below 0; used by milestones and the leaderboard.' }),
    verified: z.number().int(),
    pending: z.number().int(),
    left: z.number().int(),
    fake: z.number().int(),
    bonus: z.number().int(),
    total: z.number().int().openapi({ description: 'All attributed joins.' }),
    rank,
    season: InviteSeason.nullable().openapi({ description: 'The active season, if any.' }),
  })
  .openapi('InviteMember');

export const InviteLeaderboardQuery = z.object({
  period: z.enum(['all', 'season']).default('all').openapi({ description: '`all` ranks by invites; `season` by the active season.' }),
  limit: integerParam({ min: 1, max: 100, default: 25 }),
  cursor: integerParam({ min: 0, max: 10_000_000, default: 0 }),
});

export const InviteLeaderboard = z
  .object({
    period: z.enum(['all', 'season']),
    season: z
      .object({
        id: z.number().int(),
        number: z.number().int(),
        name: z.string().nullable(),
        startsAt: Timestamp.nullable(),
        endsAt: Timestamp.nullable(),
      })
      .nullable()
      .openapi('InviteLeaderboardSeason'),
    items: z.array(
      z
        .object({
          rank: z.number().int(),
          userId: SnowflakeId,
          score: z.number().int().openapi({ description: 'What the period ranks by: invites for `all`.' }),
          invites: z.number().int(),
          verified: z.number().int(),
          bonus: z.number().int(),
        })
        .openapi('InviteLeaderRow'),
    ),
    total: z.number().int().openapi({ description: 'Ranked inviters (invites above 0).' }),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('InviteLeaderboard');

export const BonusRequest = z
  .strictObject({
    amount: z
      .number()
      .int()
      .min(-MAX_BONUS_AMOUNT)
      .max(MAX_BONUS_AMOUNT)
      .openapi({ description: 'Positive adds bonus invites, negative removes them.' }),
    reason: SafeText.max(200).nullable().optional(),
  })
  .openapi('BonusRequest');

export const BonusResult = z
  .object({
    userId: SnowflakeId,
    amount: z.number().int(),
    previousBonus: z.number().int(),
    bonus: z.number().int(),
    invites: z.number().int(),
    verified: z.number().int(),
  })
  .openapi('BonusResult');

export type InviteMemberBody = z.infer<typeof InviteMember>;
export type InviteLeaderboardBody = z.infer<typeof InviteLeaderboard>;
export type BonusResultBody = z.infer<typeof BonusResult>;
