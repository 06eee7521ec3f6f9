import { SNOWFLAKE_PATTERN } from './snowflake.js';
import { z } from './zod.js';

export const SnowflakeId = z
  .string()
  .regex(SNOWFLAKE_PATTERN, 'must be a snowflake id: 17 to 20 decimal digits')
  .openapi({ example: '1183412207618781234', description: 'Chat-platform id: 17 to 20 decimal digits, as a string.' });

export const GuildParams = z.object({ guildId: SnowflakeId });
export const GuildMemberParams = GuildParams.extend({ userId: SnowflakeId });

export const Timestamp = z.iso.datetime({ offset: true }).openapi({ example: '2026-11-22T12:00:00.000Z' });

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
    requestId: z.string().optional().openapi({ description: 'INTERNAL_ERROR only: quote it when reporting the problem.' }),
  })
  .openapi('Error');
