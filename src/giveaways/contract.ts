import { GuildParams, integerParam, SAFE_TEXT_PATTERN, SafeText, safeHttpUrl, SnowflakeId, Timestamp } from '../core/contract.js';
import { SNOWFLAKE_PATTERN } from '../core/snowflake.js';
import { z } from '../core/zod.js';
import { GIVEAWAY_STATUSES, MAX_DURATION_SECONDS, MIN_DURATION_SECONDS } from './giveawayRules.js';

/**
 * A chat-platform id in a request body. Every body string documents the storable-text pattern
 * (test/api/http/safeText.test.ts); the snowflake rule is documented beside it in `allOf`, so a request valid
 * against the document is a valid snowflake too.
 */
const BodySnowflake = SafeText.regex(SNOWFLAKE_PATTERN, 'must be a snowflake id: 17 to 20 decimal digits').openapi({
  pattern: SAFE_TEXT_PATTERN.source,
  allOf: [{ pattern: SNOWFLAKE_PATTERN.source }],
  example: '1183412207618781234',
  description: 'Chat-platform id: 17 to 20 decimal digits, as a string.',
});
const HexColor = SafeText.regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour like #D94CFF').openapi({
  pattern: SAFE_TEXT_PATTERN.source,
  allOf: [{ pattern: '^#[0-9A-Fa-f]{6}$' }],
});
const RoleIds = z.array(BodySnowflake).max(20);
/** A timestamp in a request body: its format, and the storable-text pattern every body string documents. */
const BodyTimestamp = Timestamp.openapi({ pattern: SAFE_TEXT_PATTERN.source });

export const Requirements = z
  .strictObject({
    roleIds: RoleIds.default([]).openapi({ description: 'Roles an entrant must hold (see roleMode).' }),
    roleMode: z.enum(['any', 'all']).default('any').openapi({ description: '`any`: one of roleIds is enough; `all`: every one.' }),
    blockedRoleIds: RoleIds.default([]).openapi({ description: 'Members holding any of these roles cannot enter, and are left out of every draw.' }),
    minAccountAgeDays: z
      .number()
      .int()
      .min(0)
      .max(3650)
      .default(0)
      .openapi({ description: 'Account age from the user id; 0 is no requirement. Up to 60 s of clock skew with the platform is tolerated.' }),
    minMemberDays: z.number().int().min(0).max(3650).default(0).openapi({ description: 'Days since the member joined the server.' }),
    minLevel: z.number().int().min(0).max(1000).default(0),
    entryCost: z
      .number()
      .int()
      .min(0)
      .max(1_000_000_000)
      .default(0)
      .openapi({ description: 'Debited from the bank on entry (ledger type `giveaway_entry`); refunded on leaving and on cancel (`giveaway_refund`).' }),
    bonusRoles: z
      .array(z.strictObject({ roleId: BodySnowflake, entries: z.number().int().min(2).max(10) }))
      .max(10)
      .default([])
      .openapi({ description: 'Extra tickets: an entrant holding bonus roles gets the entries of the highest one (they do not add up).' }),
  })
  .openapi('GiveawayRequirements');

export const EmbedInput = z
  .strictObject({
    color: HexColor.optional(),
    endedColor: HexColor.optional(),
    emoji: SafeText.min(1).max(64).optional(),
    imageUrl: safeHttpUrl(500).nullable().optional(),
    thumbnailUrl: safeHttpUrl(500).nullable().optional(),
  })
  .openapi('GiveawayEmbed', { description: "Each field omitted takes the server's Giveaways look (defaults #D94CFF, #4E5058, the party emoji, no images)." });

export const GiveawayStartRequest = z
  .strictObject({
    channelId: BodySnowflake.openapi({ description: 'A text or announcement channel of the server (422 INVALID_CHANNEL otherwise).' }),
    prize: SafeText.min(1).max(200),
    description: SafeText.max(1000).nullable().optional(),
    winners: z.number().int().min(1).max(50).default(1),
    startsAt: BodyTimestamp.nullable().optional().openapi({ description: 'Omitted or null: now. A time in the past or more than 365 days ahead is refused (422 INVALID_SCHEDULE).' }),
    endsAt: BodyTimestamp.optional().openapi({
      description: `Give endsAt or durationSeconds, not both (400 INVALID_REQUEST); ${MIN_DURATION_SECONDS} s to ${MAX_DURATION_SECONDS} s after the start (422 INVALID_SCHEDULE).`,
    }),
    durationSeconds: z.number().int().min(MIN_DURATION_SECONDS).max(MAX_DURATION_SECONDS).optional().openapi({ description: 'Counted from the start.' }),
    requirements: Requirements.optional(),
    embed: EmbedInput.optional(),
    pingRoleId: BodySnowflake.nullable().optional().openapi({ description: 'A role mentioned when the giveaway message is posted.' }),
    dmWinners: z.boolean().optional().openapi({ description: "Default: the server's Giveaways setting." }),
    hostId: BodySnowflake.nullable().optional().openapi({ description: "Default: the key's creator (the server owner for a key without one)." }),
  })
  // The end is part of the body's shape (one of the two, never both), so a body without it does not validate: 400.
  .refine((body) => (body.endsAt === undefined) !== (body.durationSeconds === undefined), { message: 'give exactly one of endsAt and durationSeconds' })
  .openapi('GiveawayStartRequest', {
    oneOf: [{ required: ['endsAt'] }, { required: ['durationSeconds'] }],
    description:
      'Give exactly one of `endsAt` and `durationSeconds` (400 INVALID_REQUEST otherwise). A schedule that validates but cannot run ' +
      `(a start in the past or more than 365 days ahead, an end not ${MIN_DURATION_SECONDS} to ${MAX_DURATION_SECONDS} s after the start) is 422 INVALID_SCHEDULE.`,
  });

const RequirementsOut = z
  .object({
    roleIds: z.array(SnowflakeId),
    roleMode: z.enum(['any', 'all']),
    blockedRoleIds: z.array(SnowflakeId),
    minAccountAgeDays: z.number().int(),
    minMemberDays: z.number().int(),
    minLevel: z.number().int(),
    entryCost: z.number().int(),
    bonusRoles: z.array(z.object({ roleId: SnowflakeId, entries: z.number().int() })),
  })
  .openapi('GiveawayRequirementsOut');

export const Giveaway = z
  .object({
    id: z.number().int(),
    status: z.enum(GIVEAWAY_STATUSES).openapi({
      description:
        '`scheduled` (accepted, `messageUrl` null) → `active` (the bot posted the message at `startsAt`) → `ended` (drawn at `endsAt` or by ' +
        'POST end; `winnerIds`, changed by rerolls); `scheduled` or `active` → `cancelled` (by staff, entries refunded).',
    }),
    prize: z.string(),
    description: z.string().nullable(),
    channelId: SnowflakeId,
    messageUrl: z.string().nullable().openapi({ description: 'Null until the bot posted the message.' }),
    winnersCount: z.number().int(),
    startsAt: Timestamp,
    endsAt: Timestamp,
    endedAt: Timestamp.nullable(),
    entrants: z.number().int(),
    entries: z.number().int().openapi({ description: 'Tickets, bonus entries included.' }),
    winnerIds: z.array(SnowflakeId).openapi({ description: "The current winners: the first draw's, changed by rerolls." }),
    hostId: SnowflakeId,
    requirements: RequirementsOut,
    pingRoleId: SnowflakeId.nullable(),
    dmWinners: z.boolean(),
    createdAt: Timestamp,
  })
  .openapi('Giveaway');

export const GiveawayDraw = z
  .object({
    drawNumber: z.number().int().openapi({ description: '1 for the draw at the end, then one per reroll.' }),
    kind: z.enum(['end', 'reroll']),
    drawnAt: Timestamp,
    requested: z.number().int().openapi({ description: 'How many winners the draw was asked for.' }),
    winnerIds: z.array(SnowflakeId).openapi({ description: 'Drawn in this draw, in draw order.' }),
    replacedUserIds: z.array(SnowflakeId).openapi({ description: 'Reroll: the winners this draw replaced.' }),
    entrants: z.number().int().openapi({ description: 'Entrants the draw ranked: everyone who entered, less earlier winners (whether each was still eligible is checked only as needed, see `checkedEntrants`).' }),
    entries: z.number().int().openapi({ description: 'Their tickets (entries), bonus entries included.' }),
    checkedEntrants: z.number().int().openapi({
      description: 'Entrants checked for eligibility at draw time (still a member, no blocked role), walking the draw order until enough winners were found; equals `entrants` when there is a shortfall.',
    }),
    shortfall: z.number().int().openapi({ description: 'Winners missing because too few entrants were eligible (every entrant was then checked).' }),
    seed: z.string().openapi({ description: 'The 256-bit seed (hex), revealed; SHA-256 of it is `seedHash`.' }),
    seedHash: z.string(),
    algorithm: z.string().openapi({ description: 'How winners follow from the seed; see docs/api-decisions.md (Giveaways).' }),
  })
  .openapi('GiveawayDraw');

export const GiveawayAction = z
  .object({
    type: z.enum(['post', 'edit', 'announce', 'dm']),
    status: z.enum(['queued', 'done', 'failed']),
    drawNumber: z.number().int().nullable(),
    userId: SnowflakeId.nullable().openapi({ description: 'dm: the winner.' }),
    error: z.string().nullable(),
    queuedAt: Timestamp,
    doneAt: Timestamp.nullable(),
  })
  .openapi('GiveawayAction');

export const GiveawayDetail = Giveaway.extend({
  entryCounts: z.object({
    entrants: z.number().int(),
    entries: z.number().int(),
    bonusEntries: z.number().int().openapi({ description: 'Tickets beyond one per entrant (bonus roles).' }),
  }),
  seedHash: z.string().openapi({ description: 'SHA-256 (hex) of the draw seed, committed when the giveaway was created.' }),
  draws: z.array(GiveawayDraw).openapi({ description: 'Every draw, first first.' }),
  queuedActions: z.array(GiveawayAction).openapi({ description: 'The latest 20 bot actions (message, edits, announcements, DMs), newest first.' }),
}).openapi('GiveawayDetail');

const pageFields = {
  total: z.number().int(),
  page: z.number().int(),
  nextPage: z.number().int().nullable().openapi({ description: 'Null on the last page.' }),
};

export const GiveawayList = z.object({ items: z.array(Giveaway), ...pageFields }).openapi('GiveawayList');

export const GiveawaysQuery = z.object({
  status: z
    .enum([...GIVEAWAY_STATUSES, 'open'])
    .optional()
    .openapi({ description: '`open` = scheduled + active. Without it, every status.' }),
  page: integerParam({ min: 1, max: 10_000, default: 1 }),
  limit: integerParam({ min: 1, max: 100, default: 25 }),
});

export const GiveawayParams = GuildParams.extend({ giveawayId: integerParam({ min: 1, max: 2_147_483_647 }) });

export const GiveawayEntrant = z
  .object({
    userId: SnowflakeId,
    tickets: z.number().int().openapi({ description: '1, or the entries of the highest bonus role held when entering.' }),
    entryCost: z.number().int().openapi({ description: 'What the entry debited from the bank.' }),
    enteredAt: Timestamp,
  })
  .openapi('GiveawayEntrant');

export const GiveawayEntries = z.object({ items: z.array(GiveawayEntrant), ...pageFields }).openapi('GiveawayEntries');

export const EntriesQuery = z.object({
  page: integerParam({ min: 1, max: 10_000, default: 1 }),
  limit: integerParam({ min: 1, max: 100, default: 25 }),
});

export const GiveawayRerollRequest = z
  .strictObject({
    count: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .openapi({ description: 'New winners to draw. Default: as many as bring the winners back to `winners`; more is 422 TOO_MANY_WINNERS.' }),
    replaceUserIds: z
      .array(BodySnowflake)
      .max(50)
      .optional()
      .openapi({ description: 'Current winners who lose their win (each must be a current winner: 422 NOT_A_WINNER). Default: every current winner.' }),
  })
  .openapi('GiveawayRerollRequest', { description: 'An empty body replaces every current winner with a new one. The winners never number more than `winners`.' });

export const GiveawayDrawResult = z
  .object({ giveaway: GiveawayDetail, draw: GiveawayDraw })
  .openapi('GiveawayDrawResult', { description: 'The giveaway after the draw, and the draw itself.' });

export type GiveawayBody = z.infer<typeof Giveaway>;
export type GiveawayDetailBody = z.infer<typeof GiveawayDetail>;
export type GiveawayDrawBody = z.infer<typeof GiveawayDraw>;
export type GiveawayDrawResultBody = z.infer<typeof GiveawayDrawResult>;
export type GiveawayEntriesBody = z.infer<typeof GiveawayEntries>;
export type GiveawayStartBody = z.output<typeof GiveawayStartRequest>;
