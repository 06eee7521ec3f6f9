import type { z } from 'zod';
import { Refusal } from '../../../src/core/refusal.js';

/**
 * A command's input as the API's own request schema validates it (the same bounds and text rules, one rule for both
 * doors); a Refusal in words, from the first field it refuses, otherwise.
 */
export function validated<S extends z.ZodType>(schema: S, body: unknown, words: (path: string) => string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new Refusal('INVALID_REQUEST', words(String(parsed.error.issues[0]?.path[0] ?? '')));
}
