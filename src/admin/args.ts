import { parseArgs } from 'node:util';
import { SNOWFLAKE_PATTERN } from '../domain/snowflake.js';
import { usageError } from './io.js';

export type FlagSpec = Record<string, { type: 'string' | 'boolean' }>;

/** Parses `--flag value` options strictly: an unknown flag or a stray argument is a usage error. */
export function parseFlags<T extends FlagSpec>(argv: string[], spec: T) {
  try {
    const { values } = parseArgs({ args: argv, options: { ...spec, json: { type: 'boolean' } }, strict: true, allowPositionals: false });
    return values as { [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string } & { json?: boolean };
  } catch (err) {
    throw usageError((err as Error).message);
  }
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw usageError(`--${flag} is required.`);
  return value;
}

export function snowflakeFlag(value: string | undefined, flag: string): string {
  const v = required(value, flag);
  if (!SNOWFLAKE_PATTERN.test(v)) throw usageError(`--${flag} must be a snowflake id (17 to 20 digits), got "${v}".`);
  return v;
}

export function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw usageError(`--${flag} must be one of ${allowed.join(', ')}; got "${value}".`);
  return value as T;
}

export function booleanFlag(value: string | undefined, flag: string): boolean | undefined {
  const parsed = oneOf(value, flag, ['true', 'false'] as const);
  return parsed === undefined ? undefined : parsed === 'true';
}
