import { FLOW_RUNS_PER_DAY } from '../src/flows/quota.js';
import { WINDOW, type DocumentSettings } from './openapiHeaders.js';
import { MOD_ACTIONS_PER_MINUTE } from '../src/moderation/admitModAction.js';

/** info.description: what a client needs that no single operation says (rate limits, idempotency, errors, rules). */
export function apiDescription({ limits, bodyLimitBytes }: DocumentSettings): string {
  const { free, pro } = limits.requestsPerMinute;
  const runs = (n: number) => n.toLocaleString('en-US');
  return `Server-to-server REST API of the community bot, for one chat-platform server per API key. The paths are relative to the server URL, which ends in \`/api/v1\`; this document is served without a key at \`{base_url}/openapi.json\`.

**Authentication.** Every request carries \`Authorization: Bearer <API key>\` (\`svc_\` + 43 characters, created in the web console with its scopes). Each operation names the one scope it needs (\`x-required-scope\`; \`x-sensitive\` marks sensitive scopes). Any request with an \`Origin\` header is refused with 403 BROWSER_REQUESTS_NOT_ALLOWED: call the API from a server, not a browser.

**Rate limits.** Per API key, in ${WINDOW}, shared by all instances: ${free} requests per window on Free, ${pro} on Pro; requests over the limit count too. Responses carry \`X-RateLimit-Limit\` (the plan's limit), \`X-RateLimit-Remaining\` (left in this window, this request counted) and \`X-RateLimit-Reset\` (whole seconds until the window ends, 1 to 60). Over the limit: 429 RATE_LIMITED with \`Retry-After\` in seconds. Moderation actions have a per-key limit of their own (see those operations). More than ${limits.authFailuresPerMinute} failed authentications (401) per minute from one IP address: further failures from it get 429 until the minute ends, while requests with a valid key go on (their own limit applies). 503 SERVICE_UNAVAILABLE carries \`Retry-After\` too. Retry 429, 500, 503 and timeouts, after \`Retry-After\` seconds when present, with the same Idempotency-Key.

**Idempotency.** Writes that declare the \`Idempotency-Key\` header accept it: the first successful response is stored 24 hours per key and replayed (with \`Idempotent-Replayed: true\`) for the same request; a different request under the same key answers 422 IDEMPOTENCY_KEY_REUSED.

**Asynchronous writes.** Work the bot does on the chat platform is accepted at once (202, or 201 for a new giveaway) and carried out within seconds, also while the platform or the service's workflow engine is slow; read the outcome back:
- XP changes: poll the returned \`changeId\`; \`status\` \`pending\` → \`processing\` → \`done\` (with \`result\`) or \`failed\` (with \`error\`).
- moderation actions: poll the returned \`actionId\`; \`status\` \`pending\` → \`running\` → \`done\` (with \`caseNumber\`) or \`failed\` (the refusal in \`error\`).
- flow runs: poll the returned \`executionId\` (or pass \`wait\` to wait up to \`timeoutSeconds\`); \`status\` \`running\` → \`success\`, \`error\`, \`stopped\` or \`cancelled\`.
- giveaways: \`status\` \`scheduled\` → \`active\` (the message posted, \`messageUrl\` set) → \`ended\` (drawn; \`winnerIds\`), or \`cancelled\`; ending early and rerolling answer with the draw once it is stored.
- appeal decisions and application decisions: the decision stands at once; \`applying\` is true until the platform side (unban, roles, DMs ...) is done, then \`failedAction\` / \`failedActions\` name what failed for good.
- ticket closes: the ticket is \`closed\` at once; \`closeRequest.viaApi\` stays set until the log line, DM and channel removal are done.

**Errors.** Body \`{error, message}\` plus, for some codes, \`issues\` (INVALID_REQUEST: \`{location, path, message}\` items), \`required\` (INSUFFICIENT_SCOPE), \`balance\` (INSUFFICIENT_FUNDS), \`maxBalance\` (BALANCE_LIMIT), \`limit\` (PAYLOAD_TOO_LARGE), \`status\` (APPEAL_NOT_OPEN), \`requestId\` (INTERNAL_ERROR). Every response has \`X-Request-Id\`. Checks run in this order: route (404 NOT_FOUND, 405 METHOD_NOT_ALLOWED), Origin, address throttle, key (401), key rate limit (429), server (400 INVALID_REQUEST for a malformed \`{guildId}\`, 403 GUILD_MISMATCH, GUILD_BLOCKED), scope (403), feature (409), body (415, 413, 400 INVALID_JSON), validation (400 INVALID_REQUEST), then the endpoint.

**Limits.** Request bodies: at most ${bodyLimitBytes} bytes (413 PAYLOAD_TOO_LARGE with \`limit\`). Lists: \`limit\` 1 to 100 (transcripts 1 to 500), cursors and pages as each operation says. Moderation: ${MOD_ACTIONS_PER_MINUTE} moderation actions per minute per key (429 RATE_LIMITED). Flows: ${runs(FLOW_RUNS_PER_DAY.free)} flow runs per UTC day on Free, ${runs(FLOW_RUNS_PER_DAY.pro)} on Pro, every trigger counted (429 FLOW_RUN_QUOTA_EXHAUSTED with \`limit\` and \`resetAt\`). Idempotency-Key responses are kept 24 hours. Field bounds (amounts, lengths, counts) are in each schema's \`minimum\`, \`maximum\`, \`minLength\`, \`maxLength\` and \`maxItems\`; each operation lists the error codes it answers, by status.

**Requests.** Bodies are JSON in UTF-8 (\`Content-Type: application/json\`), at most ${bodyLimitBytes} bytes. Unknown body fields are refused; unknown query parameters are ignored. Paths match case-insensitively, with or without a trailing slash.

**Compatibility.** Within v1 fields may be added to responses and webhook payloads, never removed or retyped: ignore fields you do not know. Responses never contain fields this document does not list.`;
}
