import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { SNOWFLAKE_PATTERN } from '../../src/core/snowflake.js';
import { usageError } from './errors.js';

export interface FlagDef {
  type: 'string' | 'boolean';
  help: string;
  /** Shown in usage lines, e.g. `--id ID`. */
  placeholder?: string;
  required?: boolean;
}

export type FlagSpec = Record<string, FlagDef>;

export type FlagValues<F extends FlagSpec> = {
  [K in keyof F]: F[K]['type'] extends 'boolean'
    ? boolean
    : F[K]['required'] extends true
      ? string
      : string | undefined;
} & { json: boolean };

/** Flags every command accepts. */
export const COMMON_FLAGS = {
  json: { type: 'boolean', help: 'print the result (and errors) as JSON' },
  help: { type: 'boolean', help: 'show this help' },
} as const satisfies FlagSpec;

const flagList = (spec: FlagSpec) => Object.keys({ ...spec, ...COMMON_FLAGS }).map((f) => `--${f}`).join(', ');

/**
 * Parses the flags of one command strictly: an unknown flag, a missing value or a stray argument is a
 * usage error naming the flags the command does know.
 */
export function parseFlags<F extends FlagSpec>(argv: string[], spec: F, command: string): FlagValues<F> {
  const options = Object.fromEntries(Object.entries({ ...spec, ...COMMON_FLAGS }).map(([name, def]) => [name, { type: def.type }]));
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw parseFailure(err as Error & { code?: string }, spec, command);
  }
  for (const [name, def] of Object.entries(spec)) {
    if (def.type === 'boolean') values[name] = values[name] === true;
    else if (def.required && (values[name] === undefined || values[name] === '')) {
      throw usageError('MISSING_FLAG', `\`${command}\` needs --${name} ${def.placeholder ?? 'VALUE'}.`);
    }
  }
  values.json = values.json === true;
  return values as FlagValues<F>;
}

function parseFailure(err: Error & { code?: string }, spec: FlagSpec, command: string) {
  const quoted = /'([^']*)'/.exec(err.message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return usageError('UNKNOWN_FLAG', `Unknown flag ${quoted} for \`${command}\`; it accepts ${flagList(spec)}.`);
  }
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return usageError('UNEXPECTED_ARGUMENT', `Unexpected argument "${quoted}" for \`${command}\`; every value goes after its flag.`);
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /'(--?[\w-]+)/.exec(err.message)?.[1] ?? '';
    const isSwitch = ({ ...spec, ...COMMON_FLAGS } as FlagSpec)[flag.replace(/^--?/, '')]?.type === 'boolean';
    return usageError('INVALID_ARGUMENT', `${flag} ${isSwitch ? 'takes no value' : 'needs a value'} (\`${command}\`).`);
  }
  return usageError('INVALID_ARGUMENT', `${err.message.split('.')[0]} (\`${command}\`).`);
}

export function snowflake(value: string, flag: string): string {
  if (!SNOWFLAKE_PATTERN.test(value)) {
    throw usageError('INVALID_ARGUMENT', `--${flag} must be a snowflake id (17 to 20 digits), got "${value}".`);
  }
  return value;
}

export function oneOf<T extends string>(value: string, flag: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw usageError('INVALID_ARGUMENT', `--${flag} must be one of ${allowed.join(', ')}; got "${value}".`);
  }
  return value as T;
}

export function text(value: string, flag: string, maxLength: number): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > maxLength) {
    throw usageError('INVALID_ARGUMENT', `--${flag} must be 1 to ${maxLength} characters.`);
  }
  return trimmed;
}

/** A whole number written in decimal digits, from `min` to `max`. */
export function wholeNumber(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw usageError('INVALID_ARGUMENT', `--${flag} must be a whole number from ${min} to ${max.toLocaleString('en')}, got "${value}".`);
  }
  return n;
}

/** A JSON value checked by `schema`; `shape` says in words what is expected when it does not fit. */
export function jsonArg<T>(value: string, flag: string, schema: z.ZodType<T>, shape: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    throw usageError('INVALID_ARGUMENT', `--${flag} must be JSON (${(err as Error).message}).`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.length ? `[${i.path.join('.')}] ` : ''}${i.message}`).join('; ');
    throw usageError('INVALID_ARGUMENT', `--${flag} must be ${shape}: ${issues}.`);
  }
  return result.data;
}

/** Applies a validator only when the flag was given. */
export const optional = <T>(value: string | undefined, parse: (v: string) => T): T | undefined =>
  value === undefined ? undefined : parse(value);
