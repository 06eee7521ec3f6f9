import { AppError } from '../../src/core/errors.js';
import { PlatformConfigurationError, PlatformRefusedError, PlatformUnavailableError } from '../../src/core/platform.js';
import { Refusal } from '../../src/core/refusal.js';

/** A refusal an operator can act on: printed as one line; exit code 1, or 2 when the command line is wrong. */
export class AdminError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

export const usageError = (code: string, message: string) => new AdminError(code, message, 2);

const hasCode = (err: unknown): err is Error & { code: string } =>
  err instanceof Error && 'code' in err && typeof err.code === 'string';

/**
 * Any failure as an operator error: the areas' refusals and the API's AppError keep their codes; anything
 * else is reported by its message so the CLI never dumps a stack at an operator.
 */
export function toAdminError(err: unknown): AdminError {
  if (err instanceof AdminError) return err;
  if (err instanceof Refusal) return new AdminError(err.code, err.message);
  // The API's refusals (MEMBER_NOT_FOUND, BOT_ACCOUNT, ...) from checks the CLI shares with it.
  if (err instanceof AppError) return new AdminError(err.code, err.message);
  if (err instanceof PlatformRefusedError || err instanceof PlatformConfigurationError) return new AdminError(err.code, err.message);
  if (err instanceof PlatformUnavailableError) return new AdminError('PLATFORM_UNAVAILABLE', err.message);
  if (hasCode(err) && (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === '3D000' || err.code === '28P01')) {
    return new AdminError(
      'DATABASE_UNAVAILABLE',
      `Cannot use PostgreSQL (${err.message}): check DATABASE_URL, or start \`npm run dev\` for its embedded database.`,
    );
  }
  return new AdminError('INTERNAL', err instanceof Error ? err.message : String(err));
}
