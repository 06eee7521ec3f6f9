import { invalidJson, invalidRequest, payloadTooLarge, unsupportedMediaType, type ValidationIssue } from '../../src/core/errors.js';
import type { AppMiddleware } from '../context.js';

const JSON_TYPE = /^application\/json\s*(;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
// PostgreSQL refuses U+0000 in text and jsonb, and unpaired surrogates in jsonb: such strings would fail
// deep inside a write's transaction (500), so they are refused up front as invalid input.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Reads a write endpoint's body: JSON only (415 otherwise, also for another charset than UTF-8 or any
 * Content-Encoding), at most `limitBytes` (413, checked against Content-Length before reading and against
 * the bytes actually read), parsed (400 INVALID_JSON), with no string PostgreSQL cannot store (400
 * INVALID_REQUEST). The raw bytes stay on the request for Idempotency-Key fingerprints. A request without
 * a body leaves it undefined.
 */
export function jsonBody(limitBytes: number): AppMiddleware {
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody) {
      if (!isUtf8Json(ctx.get('Content-Type')) || !isIdentity(ctx.get('Content-Encoding'))) throw unsupportedMediaType();
      if (ctx.request.length > limitBytes) throw payloadTooLarge(limitBytes);
      const raw = await readLimited(ctx.req, limitBytes);
      ctx.state.rawBody = raw;
      ctx.state.body = parseJson(raw);
      const issues = unstorableStrings(ctx.state.body);
      if (issues.length > 0) throw invalidRequest(issues);
    }
    await next();
  };
}

function isUtf8Json(contentType: string): boolean {
  if (!JSON_TYPE.test(contentType)) return false;
  const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

const isIdentity = (contentEncoding: string) => contentEncoding === '' || contentEncoding.toLowerCase() === 'identity';

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

interface Visit {
  value: unknown;
  key?: string;
  parent?: Visit;
}

const pathOf = (visit: Visit): string => {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

/**
 * Walks the parsed body without recursion and without copying paths (a 64 KiB body can nest tens of
 * thousands of levels deep); reports at most 10 strings.
 */
function unstorableStrings(body: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (visit: Visit) =>
    issues.push({ location: 'body', path: pathOf(visit), message: 'must not contain U+0000 or unpaired surrogates' });
  const pending: Visit[] = [{ value: body }];
  while (pending.length > 0 && issues.length < 10) {
    const visit = pending.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) report(visit);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push({ value: item, key: String(i), parent: visit }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const child = { value: item, key, parent: visit };
        if (UNSTORABLE.test(key)) report(child);
        pending.push(child);
      }
    }
  }
  return issues;
}
