import { z } from 'zod';

/** Chat-platform ids (guild, user, role, channel, message): 17 to 20 decimal digits, always strings. */
export const SNOWFLAKE_PATTERN = /^\d{17,20}$/;

/** The platform's snowflake epoch (2015-01-01): an id carries its creation time in its high bits. */
const SNOWFLAKE_EPOCH_MS = 1_420_070_400_000n;

/** When the account, message or server with this id was created. */
export function snowflakeCreatedAt(id: string): Date {
  return new Date(Number((BigInt(id) >> 22n) + SNOWFLAKE_EPOCH_MS));
}

export const Snowflake = z.string().regex(SNOWFLAKE_PATTERN, 'must be a snowflake id: 17 to 20 decimal digits');
