import { ERROR_STATUS, type ErrorCode } from './errorCodes.js';

export type { ErrorCode };

/** Where an INVALID_REQUEST issue was found. */
export type IssueLocation = 'path' | 'query' | 'header' | 'body';

/** One entry of INVALID_REQUEST's `issues`: documented in docs/api-decisions.md and the OpenAPI document. */
export interface ValidationIssue {
  location: IssueLocation;
  /** Dotted path inside the location, for example `amount` or `requirements.roleIds.3`; empty for the whole value. */
  path: string;
  message: string;
}

/**
 * One error type for every code the API answers with. The error boundary (api/middleware/errorBoundary.ts)
 * is the only place an AppError becomes an HTTP response: `{error: code, message, ...extra}`.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="Service API"' };

export const invalidRequest = (issues: ValidationIssue[]) =>
  new AppError('INVALID_REQUEST', 'The request is invalid; see issues.', { issues });
export const invalidJson = () => new AppError('INVALID_JSON', 'The request body is not valid JSON.');
export const unauthorized = () =>
  new AppError('UNAUTHORIZED', 'Send the API key as "Authorization: Bearer <API_KEY>".', {}, BEARER_CHALLENGE);
export const invalidApiKey = () => new AppError('INVALID_API_KEY', 'The API key is not known.', {}, BEARER_CHALLENGE);
export const apiKeyRevoked = () => new AppError('API_KEY_REVOKED', 'The API key was revoked.', {}, BEARER_CHALLENGE);
export const apiKeyExpired = () => new AppError('API_KEY_EXPIRED', 'The API key has expired.', {}, BEARER_CHALLENGE);
export const browserRequestsNotAllowed = () =>
  new AppError('BROWSER_REQUESTS_NOT_ALLOWED', 'This API is server-to-server only; requests with an Origin header are refused.');
export const guildMismatch = () => new AppError('GUILD_MISMATCH', 'The API key belongs to another server.');
export const guildBlocked = () => new AppError('GUILD_BLOCKED', 'This server is blocked.');
export const insufficientScope = (required: string) =>
  new AppError('INSUFFICIENT_SCOPE', `The API key lacks the scope ${required}.`, { required });
export const notFound = () => new AppError('NOT_FOUND', 'No such endpoint.');
export const methodNotAllowed = (allowed: string[]) =>
  new AppError('METHOD_NOT_ALLOWED', 'The endpoint does not support this method.', {}, { Allow: allowed.join(', ') });
export const memberNotFound = () => new AppError('MEMBER_NOT_FOUND', 'The user is not a member of this server.');
export const xpChangeNotFound = () => new AppError('XP_CHANGE_NOT_FOUND', 'No XP change with this id was made with this API key.');
export const caseNotFound = () => new AppError('CASE_NOT_FOUND', 'No moderation case with this number.');
export const actionNotFound = () =>
  new AppError('ACTION_NOT_FOUND', 'No moderation action with this id was requested with this API key.');
export const appealNotFound = () => new AppError('APPEAL_NOT_FOUND', 'No ban appeal with this number.');
export const ticketNotFound = () => new AppError('TICKET_NOT_FOUND', 'No ticket with this number.');
export const ticketAlreadyClosed = () => new AppError('TICKET_ALREADY_CLOSED', 'The ticket is already closed.');
export const transcriptNotFound = () =>
  new AppError('TRANSCRIPT_NOT_FOUND', 'The ticket has no transcript: it is not closed yet, or transcripts were off when it closed.');
export const appealNotOpen = (status: string) =>
  new AppError('APPEAL_NOT_OPEN', `The appeal is ${status}; only open appeals (open or question) can be decided.`, { status });
export const applicationNotFound = () => new AppError('APPLICATION_NOT_FOUND', 'No application submission with this number.');
export const applicationNotOpen = (status: string) =>
  new AppError('APPLICATION_NOT_OPEN', `The submission is ${status}; only open submissions (pending, interview or hold) can be decided.`, { status });
export const giveawayNotFound = () => new AppError('GIVEAWAY_NOT_FOUND', 'No giveaway with this id.');
export const giveawayNotActive = (status: string) =>
  new AppError('GIVEAWAY_NOT_ACTIVE', `The giveaway is ${status}; only an active giveaway can be ended.`, { status });
export const giveawayNotEnded = (status: string) =>
  new AppError('GIVEAWAY_NOT_ENDED', `The giveaway is ${status}; only an ended giveaway can be rerolled.`, { status });
/** A reroll the winners as they stand refuse (src/giveaways/rerollRules.ts words the message). */
export const rerollRefused = (code: 'NOT_A_WINNER' | 'TOO_MANY_WINNERS', message: string) => new AppError(code, message);
export const flowNotFound = () => new AppError('FLOW_NOT_FOUND', 'No flow with this id.');
export const flowRunNotFound = () => new AppError('FLOW_RUN_NOT_FOUND', 'No run of this server\'s flows with this executionId.');
export const flowDisabled = () => new AppError('FLOW_DISABLED', 'The flow is disabled; an operator enables it.');
export const flowNotRunnable = (triggerType: string) =>
  new AppError('FLOW_NOT_RUNNABLE', `The flow has a ${triggerType} trigger; only Manual and Webhook flows can be run.`, { triggerType });
export const flowRunQuotaExhausted = (limit: number, resetAt: Date, retryAfterSeconds: number) =>
  new AppError(
    'FLOW_RUN_QUOTA_EXHAUSTED',
    `The server used its ${limit} flow runs of today (UTC); runs resume at ${resetAt.toISOString()}.`,
    { limit, resetAt: resetAt.toISOString() },
    { 'Retry-After': String(retryAfterSeconds) },
  );
export const invalidChannel = () =>
  new AppError('INVALID_CHANNEL', 'channelId must be a text or announcement channel of this server.');
export const invalidSchedule = (message: string) => new AppError('INVALID_SCHEDULE', message);
export const featureDisabled = (feature: string) =>
  new AppError('FEATURE_DISABLED', `The ${feature} feature is disabled on this server.`);
export const bankDisabled = () => new AppError('BANK_DISABLED', 'The bank is disabled on this server.');
export const insufficientFunds = (balance: number) =>
  new AppError('INSUFFICIENT_FUNDS', 'The balance is too low for this removal.', { balance });
export const balanceLimit = (maxBalance: number) =>
  new AppError('BALANCE_LIMIT', `The change would take the balance above the limit of ${maxBalance}.`, { maxBalance });
export const botAccount = () => new AppError('BOT_ACCOUNT', 'The target is a bot account.');
export const idempotencyKeyReused = () =>
  new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request.');
export const payloadTooLarge = (limitBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds ${limitBytes} bytes.`, { limit: limitBytes });
export const unsupportedMediaType = () =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
export const rateLimited = (retryAfterSeconds: number, message = 'Too many requests.') =>
  new AppError('RATE_LIMITED', message, {}, { 'Retry-After': String(retryAfterSeconds) });
export const internalError = (requestId: string) =>
  new AppError('INTERNAL_ERROR', `An unexpected error occurred. Quote request id ${requestId} when reporting it.`, {
    requestId,
  });
export const serviceUnavailable = (retryAfterSeconds = 5) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'The service is temporarily unavailable; retry later with the same Idempotency-Key.',
    {},
    { 'Retry-After': String(retryAfterSeconds) },
  );
/**
 * The chat platform refused a read the request needs (the bot lacks a permission there, or the platform will never
 * accept the request): nothing the client can change, and an operator must act, so a longer wait than an outage's.
 */
export const PLATFORM_REFUSAL_RETRY_AFTER_SECONDS = 60;
export const platformRefusedRead = () =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    "The chat platform refused a request this answer needs (the bot may lack a permission in the server); retry later with the same Idempotency-Key.",
    {},
    { 'Retry-After': String(PLATFORM_REFUSAL_RETRY_AFTER_SECONDS) },
  );
