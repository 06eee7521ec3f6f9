/**
 * A typed client of the API, generated from its OpenAPI document: types by openapi-typescript, requests by
 * openapi-fetch (README.md says how to generate `generated/api.ts`). test/contract/clientExample.test.ts
 * generates the types from the app's document, type-checks this file and runs it against the app.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/api.js';

export type ServiceClient = ReturnType<typeof createServiceClient>;
type ErrorBody = components['schemas']['Error'];

/** `baseUrl` is the API root, ending in `/api/v1` (the one `npm run dev` prints); every path is relative to it. */
export function createServiceClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
}

/** An error answer of the API: `code` is its `error` field (RATE_LIMITED, MEMBER_NOT_FOUND, ...). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`${status} ${body.error}: ${body.message}`);
  }

  get code(): string {
    return this.body.error;
  }
}

function fail(response: Response, body: ErrorBody): never {
  const retryAfter = response.headers.get('Retry-After');
  throw new ApiError(response.status, body, retryAfter === null ? undefined : Number(retryAfter));
}

/** The rate-limit headers: requests per fixed one-minute window, what is left of it, seconds until it ends. */
export function rateLimitOf(response: Response) {
  const read = (name: string) => Number(response.headers.get(name));
  return { limit: read('X-RateLimit-Limit'), remaining: read('X-RateLimit-Remaining'), resetSeconds: read('X-RateLimit-Reset') };
}

export async function getGuild(client: ServiceClient, guildId: string) {
  const { data, error, response } = await client.GET('/guilds/{guildId}', { params: { path: { guildId } } });
  if (error) fail(response, error);
  return { guild: data, rateLimit: rateLimitOf(response) };
}

/**
 * Adds XP to a member. `unit` is left out (it defaults to `xp`). The change is applied asynchronously: the
 * answer is 202 with status `pending`. Pass the same `idempotencyKey` when retrying after a timeout, a 429 or
 * a 5xx: the API then answers with the first response (`Idempotent-Replayed: true`) instead of adding twice.
 */
export async function addXp(client: ServiceClient, guildId: string, userId: string, amount: number, idempotencyKey = randomUUID()) {
  const { data, error, response } = await client.POST('/guilds/{guildId}/levels/members/{userId}/xp-changes', {
    params: { path: { guildId, userId }, header: { 'Idempotency-Key': idempotencyKey } },
    body: { type: 'add', amount, reason: 'Example client' },
  });
  if (error) fail(response, error);
  return { change: data, status: response.status, replayed: response.headers.get('Idempotent-Replayed') === 'true', idempotencyKey };
}

export async function getXpChange(client: ServiceClient, guildId: string, changeId: string) {
  const { data, error, response } = await client.GET('/guilds/{guildId}/levels/xp-changes/{changeId}', {
    params: { path: { guildId, changeId } },
  });
  if (error) fail(response, error);
  return data;
}

// `npx tsx docs/client-example/client.ts` with BASE_URL, API_KEY, GUILD_ID and USER_ID set (npm run dev prints them).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { BASE_URL, API_KEY, GUILD_ID, USER_ID } = process.env;
  if (!BASE_URL || !API_KEY || !GUILD_ID || !USER_ID) throw new Error('Set BASE_URL, API_KEY, GUILD_ID and USER_ID.');
  const client = createServiceClient(BASE_URL, API_KEY);
  const { guild, rateLimit } = await getGuild(client, GUILD_ID);
  console.log(guild.name, `(${rateLimit.remaining}/${rateLimit.limit} requests left, window ends in ${rateLimit.resetSeconds} s)`);
  const { change } = await addXp(client, GUILD_ID, USER_ID, 50);
  console.log('XP change', change.changeId, change.status, '->', (await getXpChange(client, GUILD_ID, change.changeId)).status);
}
