import { z } from 'zod';

/** A yes/no environment variable: `true`/`1` or `false`/`0`, nothing else (a typo fails the boot). */
export const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');
