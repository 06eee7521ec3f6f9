import type Koa from 'koa';
import { ConsoleRefusal } from '../../src/console/errors.js';

const LIMIT_BYTES = 16_384;

/** A console form's body (application/x-www-form-urlencoded, at most 16 KiB), repeated fields kept in order. */
export async function readForm(ctx: Koa.Context): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMIT_BYTES) throw new ConsoleRefusal('INVALID_INPUT', 'The form is too large.');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
