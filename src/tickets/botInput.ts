import { z } from '../core/zod.js';

// What the bot hands the tickets use cases from the chat platform (`npm run admin -- simulate ticket-*`).

export const TicketAnswersInput = z
  .array(z.strictObject({ fieldId: z.string().min(1).max(100).nullable().optional(), label: z.string().min(1).max(500), value: z.string().max(4000) }))
  .max(25);

export const EmbedsInput = z
  .array(
    z.strictObject({
      title: z.string().max(256).nullable().optional(),
      description: z.string().max(4096).nullable().optional(),
      fields: z.array(z.strictObject({ name: z.string().max(256), value: z.string().max(1024) })).max(25).optional(),
    }),
  )
  .max(10);

export const AttachmentsInput = z
  .array(z.strictObject({ name: z.string().min(1).max(256), size: z.number().int().min(0), contentType: z.string().max(200).nullable().optional() }))
  .max(10);

/** A message id for a simulated message: a snowflake of `at` (platform epoch 2015), `seq` in its low bits. */
export function messageIdAt(at: Date, seq: number): string {
  return String(((BigInt(at.getTime()) - 1_420_070_400_000n) << 22n) + BigInt(seq % 4_194_304));
}
