/**
 * Every code the service answers with and its HTTP status: the spec's codes plus the refusal codes of
 * asynchronous operations (a workflow that refuses ends `failed` with one of these as its `error`).
 * Pure, so workflows may import it.
 */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  INVALID_API_KEY: 401,
  API_KEY_REVOKED: 401,
  API_KEY_EXPIRED: 401,
  BROWSER_REQUESTS_NOT_ALLOWED: 403,
  GUILD_MISMATCH: 403,
  INSUFFICIENT_SCOPE: 403,
  GUILD_BLOCKED: 403,
  NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  XP_CHANGE_NOT_FOUND: 404,
  CASE_NOT_FOUND: 404,
  ACTION_NOT_FOUND: 404,
  APPEAL_NOT_FOUND: 404,
  APPLICATION_NOT_FOUND: 404,
  TICKET_NOT_FOUND: 404,
  TRANSCRIPT_NOT_FOUND: 404,
  FLOW_NOT_FOUND: 404,
  FLOW_RUN_NOT_FOUND: 404,
  GIVEAWAY_NOT_FOUND: 404,
  SHOP_ITEM_NOT_FOUND: 404,
  PURCHASE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  FEATURE_DISABLED: 409,
  BANK_DISABLED: 409,
  INSUFFICIENT_FUNDS: 409,
  APPEAL_NOT_OPEN: 409,
  APPLICATION_NOT_OPEN: 409,
  TICKET_ALREADY_CLOSED: 409,
  FLOW_DISABLED: 409,
  FLOW_NOT_RUNNABLE: 409,
  GIVEAWAY_NOT_ACTIVE: 409,
  GIVEAWAY_NOT_ENDED: 409,
  SHOP_ITEM_DISABLED: 409,
  OUT_OF_STOCK: 409,
  REQUIREMENT_NOT_MET: 409,
  PURCHASE_LIMIT_REACHED: 409,
  PURCHASE_ALREADY_REFUNDED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  BOT_ACCOUNT: 422,
  BALANCE_LIMIT: 422,
  NOT_A_WINNER: 422,
  TOO_MANY_WINNERS: 422,
  INVALID_CHANNEL: 422,
  INVALID_SCHEDULE: 422,
  RATE_LIMITED: 429,
  FLOW_RUN_QUOTA_EXHAUSTED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes only an asynchronous operation ends with (ModAction.error, XpChange.error, an appeal's
 * failedAction): refusals its workflow found on the platform, never an HTTP answer of their own.
 */
export const OPERATION_REFUSALS = [
  'MODERATOR_MISSING_PERMISSION',
  'BOT_MISSING_PERMISSIONS',
  'HIERARCHY_HIGHER',
  'INVALID_TARGET',
  'NOT_BANNED',
  'ALREADY_BANNED',
  'NOT_TIMED_OUT',
  'DM_FAILED',
  'EVENT_NOT_FOUND',
  'NO_INVITE_CHANNEL',
  'MESSAGE_NOT_FOUND',
  // The platform refused a request it will never accept (not a permission: those are BOT_MISSING_PERMISSIONS).
  'PLATFORM_REFUSED',
  // The platform refused the bot's credentials (Discord: 401): an operator must fix DISCORD_TOKEN.
  'PLATFORM_UNAUTHORIZED',
] as const;

/** What a failed operation reports: an API error code or one of the refusals above. */
export type RefusalCode = ErrorCode | (typeof OPERATION_REFUSALS)[number];

/**
 * What an operation reports when it failed for a reason of ours rather than a refusal: a step that kept failing
 * (not an outage) and gave up (workflows/activityProfiles.ts), or a run that closed without a result.
 */
export const OPERATION_GAVE_UP = 'INTERNAL_ERROR' satisfies RefusalCode;
