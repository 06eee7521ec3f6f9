import { z } from 'zod';

/** Chat-platform ids (guild, user, role, channel, message): 17 to 20 decimal digits, always strings. */
export const SNOWFLAKE_PATTERN = /^\d{17,20}$/;

export const Snowflake = z.string().regex(SNOWFLAKE_PATTERN, 'must be a snowflake id: 17 to 20 decimal digits');
