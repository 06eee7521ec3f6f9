import { SnowflakeId } from '../core/contract.js';
import { z } from '../core/zod.js';

// The parameters of effect nodes once their expressions are resolved: checked again, since an expression may
// produce anything. A mismatch fails the node (and its run) with the issue as its message.

export const MessageParams = z.object({ channelId: SnowflakeId, content: z.string().min(1).max(2_000) });
export const RoleParams = z.object({ userId: SnowflakeId, roleId: SnowflakeId });
export const BankParams = z.object({
  userId: SnowflakeId,
  action: z.enum(['add', 'remove']),
  amount: z.number().int().min(1).max(1_000_000_000_000),
  reason: z.string().max(500).nullable(),
});
export const XpParams = z.object({
  userId: SnowflakeId,
  action: z.enum(['add', 'remove', 'set']),
  unit: z.enum(['xp', 'levels']),
  amount: z.number().int().min(0).max(2_000_000_000),
});
export const HttpParams = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  url: z.url({ protocol: /^https?$/ }).max(2_000),
  headers: z.record(z.string().min(1).max(100), z.string().max(2_000)),
  body: z.json().nullable(),
});

export type BankParamsValue = z.infer<typeof BankParams>;
export type XpParamsValue = z.infer<typeof XpParams>;
export type HttpParamsValue = z.infer<typeof HttpParams>;

/** The parsed parameters, or the reason they do not fit, in one line. */
export function parseParams<T extends z.ZodType>(schema: T, value: unknown): { ok: true; value: z.output<T> } | { ok: false; error: string } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0]!;
  return { ok: false, error: `${issue.path.join('.') || 'parameters'}: ${issue.message}` };
}
