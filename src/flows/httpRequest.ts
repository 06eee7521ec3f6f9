import { request, type Dispatcher } from 'undici';
import type { HttpParamsValue } from './effectParams.js';
import { HTTP_TIMEOUT_MS } from './ids.js';

export const HTTP_RESPONSE_MAX_BYTES = 64 * 1024;

export interface FlowHttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the answer says it is JSON and parses, else the text. */
  body: unknown;
}

export class FlowHttpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlowHttpError';
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > HTTP_RESPONSE_MAX_BYTES) {
      body.destroy();
      throw new FlowHttpError(`the response is larger than ${HTTP_RESPONSE_MAX_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!contentType?.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * An HTTP node's request through the webhooks' address guard (public addresses only, checked on the address
 * actually dialled): 10 s in all, the answer capped, redirects never followed (a 3xx is the node's output, so a
 * redirect can never lead to a private address). Any status is an output; no answer is a FlowHttpError.
 */
export async function sendFlowRequest(dispatcher: Dispatcher, p: HttpParamsValue): Promise<FlowHttpResponse> {
  const sendsBody = p.method !== 'GET' && p.body !== null;
  try {
    const res = await request(p.url, {
      method: p.method,
      headers: { 'user-agent': 'community-bot-flows/1', ...(sendsBody ? { 'content-type': 'application/json' } : {}), ...p.headers },
      body: sendsBody ? JSON.stringify(p.body) : undefined,
      dispatcher,
      headersTimeout: HTTP_TIMEOUT_MS,
      bodyTimeout: HTTP_TIMEOUT_MS,
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const text = await readCapped(res.body);
    return { status: res.statusCode, headers, body: parseBody(text, headers['content-type']) };
  } catch (err) {
    if (err instanceof FlowHttpError) throw err;
    const e = err as Error;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new FlowHttpError(`no complete answer within ${HTTP_TIMEOUT_MS / 1000} s`);
    const cause = (e.cause as Error | undefined)?.message;
    throw new FlowHttpError(`request failed: ${cause ?? e.message}`);
  }
}
