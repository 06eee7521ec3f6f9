import { SNOWFLAKE_PATTERN } from './snowflake.js';
import { z } from './zod.js';

export const SnowflakeId = z
  .string()
  .regex(SNOWFLAKE_PATTERN, 'must be a snowflake id: 17 to 20 decimal digits')
  .openapi({ example: '1183412207618781234', description: 'Chat-platform id: 17 to 20 decimal digits, as a string.' });

export const GuildParams = z.object({ guildId: SnowflakeId });
export const GuildMemberParams = GuildParams.extend({ userId: SnowflakeId });

export const Timestamp = z.iso.datetime({ offset: true }).openapi({ example: '2026-11-22T12:00:00.000Z' });

/**
 * Strings PostgreSQL can store: no U+0000 and no unpaired UTF-16 surrogate. The JSON body parser
 * (api/middleware/jsonBody.ts) refuses such strings anywhere in a body with this message; body string
 * schemas carry the same rule so the OpenAPI document shows it as `pattern` (a request valid against the
 * document is never refused). The pattern reads the same with and without the regex `u` flag, and runs in
 * linear time.
 */
export const SAFE_TEXT_PATTERN = /^(?:[^\u0000\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;
export const SAFE_TEXT_MESSAGE = 'must not contain U+0000 or unpaired surrogates';
export const SafeText = z.string().regex(SAFE_TEXT_PATTERN, SAFE_TEXT_MESSAGE);

/** An http(s) link, up to `maxLength` characters, under the SafeText rule (z.url() alone accepts U+0000). */
export const safeHttpUrl = (maxLength: number) =>
  z.url({ protocol: /^https?$/ }).max(maxLength).regex(SAFE_TEXT_PATTERN, SAFE_TEXT_MESSAGE).openapi({ format: 'uri' });

const DECIMAL_DIGITS = /^[0-9]+$/;
const NOT_DIGITS = 'must be an integer written in decimal digits';

/**
 * An integer path or query parameter: decimal digits only (no sign, exponent, spaces, `0x`, fraction), given
 * once, within `min`..`max`; `default` when a query parameter is absent. The OpenAPI document says
 * `type: integer` with the bounds and the default (the schema itself reads a string).
 */
export function integerParam(options: { min: number; max: number }): z.ZodType<number, string>;
export function integerParam(options: { min: number; max: number; default: number }): z.ZodType<number, string | undefined>;
export function integerParam({ min, max, default: fallback }: { min: number; max: number; default?: number }): z.ZodType<number> {
  const outOfRange = `must be an integer from ${min} to ${max}`;
  const integer = z
    .string({ error: (issue) => (Array.isArray(issue.input) ? 'must be given once' : NOT_DIGITS) })
    .regex(DECIMAL_DIGITS, NOT_DIGITS)
    .transform(Number)
    .pipe(z.number({ error: outOfRange }).min(min, outOfRange).max(max, outOfRange));
  const documented = { type: 'integer', minimum: min, maximum: max } as const;
  return fallback === undefined
    ? integer.openapi(documented)
    : integer.default(fallback).openapi({ ...documented, default: fallback });
}

/** Query booleans as the spec writes them: 1, 0, true, false. */
export const QueryBoolean = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');

export const ValidationIssueSchema = z
  .object({
    location: z.enum(['path', 'query', 'header', 'body']),
    path: z.string().openapi({ description: 'Dotted path inside the location; empty for the whole value.', example: 'amount' }),
    message: z.string(),
  })
  .openapi('ValidationIssue');

export const ErrorBody = z
  .object({
    error: z.string().openapi({ description: 'Machine-readable error code.', example: 'INVALID_REQUEST' }),
    message: z.string(),
    issues: z.array(ValidationIssueSchema).optional().openapi({ description: 'INVALID_REQUEST only.' }),
    required: z.string().optional().openapi({ description: 'INSUFFICIENT_SCOPE only: the missing scope.' }),
    balance: z.number().int().optional().openapi({ description: 'INSUFFICIENT_FUNDS only: the current balance.' }),
    maxBalance: z.number().int().optional().openapi({ description: 'BALANCE_LIMIT only: the highest balance allowed.' }),
    limit: z.number().int().optional().openapi({ description: 'PAYLOAD_TOO_LARGE only: the body limit in bytes.' }),
    status: z.string().optional().openapi({ description: 'APPEAL_NOT_OPEN only: the status the appeal is in.' }),
    requirement: z.enum(['roles', 'level']).optional().openapi({ description: 'REQUIREMENT_NOT_MET only: which requirement of the item the member misses.' }),
    perUserLimit: z.number().int().optional().openapi({ description: 'PURCHASE_LIMIT_REACHED only: the most units of the item one member may have.' }),
    requestId: z.string().optional().openapi({ description: 'INTERNAL_ERROR only: quote it when reporting the problem.' }),
  })
  .openapi('Error');
