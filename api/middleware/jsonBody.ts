import type { IncomingMessage } from 'node:http';
import { AppError, invalidJson, invalidRequest, payloadTooLarge, unsupportedMediaType, type ValidationIssue } from '../../src/core/errors.js';
import type { AppMiddleware } from '../context.js';

const JSON_TYPE = /^application\/json\s*(;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
// PostgreSQL refuses U+0000 in text and jsonb, and unpaired surrogates in jsonb: such strings would fail
// deep inside a write's transaction (500), so they are refused up front as invalid input.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * How much of a body past the limit is read and thrown away before the 413. A client that sends its whole body
 * before reading the answer (most do) gets a reset instead of the 413 when the server stops reading and closes
 * early (EPIPE on its side, the answer dropped by its kernel); read to the end, the 413 always arrives. A body
 * larger still is not read further: its 413 carries `Connection: close`.
 */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads a write endpoint's body: JSON only (415 otherwise, also for another charset than UTF-8 or any
 * Content-Encoding), at most `limitBytes` (413, checked against Content-Length and against the bytes actually
 * read; the rest of a body past it is discarded up to DISCARD_LIMIT_BYTES first, so the client gets the answer),
 * parsed (400 INVALID_JSON), with no string PostgreSQL cannot store (400 INVALID_REQUEST). The raw bytes stay
 * on the request for Idempotency-Key fingerprints. A request without a body leaves it undefined.
 */
export function jsonBody(limitBytes: number): AppMiddleware {
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody) {
      if (!isUtf8Json(ctx.get('Content-Type')) || !isIdentity(ctx.get('Content-Encoding'))) throw unsupportedMediaType();
      if (ctx.request.length > DISCARD_LIMIT_BYTES) throw tooLargeToRead(limitBytes);
      const raw = await readLimited(ctx.req, limitBytes);
      if (raw === 'discarded') throw payloadTooLarge(limitBytes);
      if (raw === 'cut') throw tooLargeToRead(limitBytes);
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

/** A 413 for a body not read to its end: the connection closes once the answer went out. */
const tooLargeToRead = (limitBytes: number) => {
  const err = payloadTooLarge(limitBytes);
  return new AppError(err.code, err.message, err.extra, { Connection: 'close' });
};

/**
 * The body, when it fits `limitBytes`; past it the rest is read and dropped ('discarded') up to
 * DISCARD_LIMIT_BYTES, where reading stops ('cut'). Events, not `for await`: leaving that loop early destroys
 * the request, and with it the socket the 413 has to go out on.
 */
function readLimited(req: IncomingMessage, limitBytes: number): Promise<Buffer | 'discarded' | 'cut'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) chunks.push(chunk);
      else if (size <= DISCARD_LIMIT_BYTES) chunks.length = 0;
      else {
        req.pause();
        finish(() => resolve('cut'));
      }
    };
    const onEnd = () => finish(() => resolve(size <= limitBytes ? Buffer.concat(chunks) : 'discarded'));
    const onError = (err: Error) => finish(() => reject(err));
    const onClose = () => finish(() => reject(new Error('the client closed the connection before its body ended')));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
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
