// Scripted answers a test puts in front of the fake's normal behaviour: Discord's refusals, rate limits,
// server errors and slow answers, each for the next `times` matching requests.

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Fault {
  method?: string;
  /** Matched against the path after /api/v10 (a string must equal it, a RegExp must match it). */
  path?: string | RegExp;
  /** How many matching requests get it (default 1). */
  times?: number;
  /** The answer instead of the normal one; without it the normal answer is given, after `delayMs`. */
  answer?: FakeAnswer;
  delayMs?: number;
  /** The request takes effect, then the connection closes without an answer (a reply lost on the way back). */
  dropAnswer?: boolean;
  /** The request takes effect and is never answered (the caller dies waiting); the connection stays open. */
  holdAnswer?: boolean;
}

export function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method && fault.method !== method) return false;
  if (fault.path === undefined) return true;
  return typeof fault.path === 'string' ? fault.path === path : fault.path.test(path);
}

/** A JSON error body as Discord sends it (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json). */
export const discordError = (status: number, code: number, message: string): FakeAnswer => ({ status, body: { message, code } });

export const missingPermissions = () => discordError(403, 50013, 'Missing Permissions');
export const cannotMessageUser = () => discordError(403, 50007, 'Cannot send messages to this user');
export const unknownMember = () => discordError(404, 10007, 'Unknown Member');
export const unknownBan = () => discordError(404, 10026, 'Unknown Ban');
export const serverError = (status = 502) => ({ status, body: { message: 'Bad Gateway', code: 0 } });

/**
 * Cloudflare's ban of the address after too many invalid requests: 429 with `Retry-After` in seconds and none of
 * Discord's rate-limit headers, an HTML page for a body (https://github.com/discordjs/discord.js/issues/8574).
 */
export function cloudflareBan(retryAfterSeconds: number): FakeAnswer {
  return { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) }, body: '<!DOCTYPE html><html><head><title>Access denied | discord.com used Cloudflare to restrict access</title></head><body>error code: 1015</body></html>' };
}

/** Discord's global limit: every request of the bot is refused for `retryAfterSeconds`. */
export const globallyRateLimited = (retryAfterSeconds: number) => rateLimited(retryAfterSeconds, { global: true });

/** 429 with Discord's headers: per-route bucket by default, the global limit with `global`. */
export function rateLimited(retryAfterSeconds: number, options: { global?: boolean; bucket?: string } = {}): FakeAnswer {
  const headers: Record<string, string> = {
    'Retry-After': String(Math.ceil(retryAfterSeconds)),
    'X-RateLimit-Scope': options.global ? 'global' : 'user',
  };
  if (options.global) headers['X-RateLimit-Global'] = 'true';
  else {
    Object.assign(headers, {
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset-After': String(retryAfterSeconds),
      'X-RateLimit-Bucket': options.bucket ?? 'fake-bucket',
    });
  }
  return { status: 429, headers, body: { message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: options.global ?? false } };
}
