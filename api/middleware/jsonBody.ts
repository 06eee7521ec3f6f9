import { invalidJson, payloadTooLarge, unsupportedMediaType } from '../../src/errors.js';
import type { AppMiddleware } from '../context.js';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Reads a write endpoint's body: JSON only (415 otherwise), at most `limitBytes` (413, checked against
 * Content-Length before reading and against the bytes actually read), parsed (400 INVALID_JSON). The raw
 * bytes stay on the request for Idempotency-Key fingerprints. A request without a body leaves it undefined.
 */
export function jsonBody(limitBytes: number): AppMiddleware {
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody) {
      if (!JSON_TYPE.test(ctx.get('Content-Type'))) throw unsupportedMediaType();
      if (ctx.request.length > limitBytes) throw payloadTooLarge(limitBytes);
      const raw = await readLimited(ctx.req, limitBytes);
      ctx.state.rawBody = raw;
      ctx.state.body = parseJson(raw);
    }
    await next();
  };
}

async function readLimited(stream: AsyncIterable<Buffer>, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > limitBytes) throw payloadTooLarge(limitBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidJson();
  }
}
