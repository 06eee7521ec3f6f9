import { DiscordAPIError, HTTPError, RateLimitError } from '@discordjs/rest';
import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import { DiscordBlockedError } from './banLatch.js';
import { PlatformConfigurationError, PlatformRefusedError, PlatformUnavailableError } from '../../core/platform.js';

export const DISCORD = RESTJSONErrorCodes;

/** Discord's JSON error code of a refusal, undefined for anything else. */
export function discordCode(err: unknown): number | undefined {
  return err instanceof DiscordAPIError && typeof err.code === 'number' ? err.code : undefined;
}

export const UNAUTHORIZED_MESSAGE =
  'Discord refused the bot token (401 Unauthorized): set DISCORD_TOKEN to the bot token from the Developer Portal and restart; ' +
  'no platform request is made until then.';

/**
 * What a failed Discord call means for the caller (https://discord.com/developers/docs/topics/opcodes-and-status-codes):
 * 401 is the operator's to fix; 403 and other 4xx are refusals a retry cannot change, never retried (each one spends
 * the 10,000-per-10-minutes invalid request budget); 5xx, a rate limit longer than the adapter waits, a timeout or a
 * network error is an outage the caller retries with backoff (Temporal's retry policy for activities).
 */
export function translateDiscordError(err: unknown, what: string): Error {
  if (err instanceof DiscordAPIError) {
    if (err.status === 401) return new PlatformConfigurationError(UNAUTHORIZED_MESSAGE);
    if (err.status === 429) return new PlatformUnavailableError(`Discord rate limit on ${what}; try again later.`);
    if (err.code === DISCORD.MissingPermissions || err.code === DISCORD.MissingAccess || err.status === 403) {
      return new PlatformRefusedError('BOT_MISSING_PERMISSIONS', `Discord refused ${what}: ${err.message} (${err.code}).`);
    }
    return new PlatformRefusedError('PLATFORM_REFUSED', `Discord refused ${what}: ${err.message} (${err.code}).`);
  }
  if (err instanceof DiscordBlockedError) {
    const seconds = Math.max(1, Math.ceil(err.remainingMs / 1000));
    return new PlatformUnavailableError(`Discord requests are stopped (${err.reason} 429) until ${err.until.toISOString()}: not ${what}.`, seconds);
  }
  if (err instanceof HTTPError) return new PlatformUnavailableError(`Discord answered ${err.status} to ${what}.`);
  if (err instanceof RateLimitError) {
    return new PlatformUnavailableError(`Discord rate limit on ${what} (${err.global ? 'global' : err.route}): retry after ${err.retryAfter} ms.`, Math.max(1, Math.ceil(err.retryAfter / 1000)));
  }
  if (isNetworkFailure(err)) return new PlatformUnavailableError(`Discord is unreachable for ${what}: ${(err as Error).message}.`);
  return err as Error;
}

function isNetworkFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return true;
  const code = (err as { code?: unknown }).code ?? (err.cause as { code?: unknown } | undefined)?.code;
  return err.message === 'fetch failed' || (typeof code === 'string' && /^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(code));
}
