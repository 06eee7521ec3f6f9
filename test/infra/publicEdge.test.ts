import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT, defaultTextMapSetter, propagation, trace, TraceFlags } from '@opentelemetry/api';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { errorBoundary } from '../../api/middleware/errorBoundary.js';
import { startGracefulServer } from '../../process/ops/gracefulServer.js';
import { edgePropagator, incomingSpanAttributes, markOutboundHttp } from '../../process/tracing/publicEdge.js';
import { captureLogs } from '../harness/capturedLogs.js';

// What crosses the service's edge: no baggage out, no trace context in (unless configured), no flow webhook token in a
// log line or a span.

const TOKEN = `fwh_${'S'.repeat(43)}`;

describe('the propagator', () => {
  const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
  const withRequestId = (span = trace.wrapSpanContext(spanContext)) =>
    propagation.setBaggage(trace.setSpan(ROOT_CONTEXT, span), propagation.createBaggage({ 'request.id': { value: 'req-1' } }));

  it('carries the trace context and the baggage into Temporal headers (any carrier but an outgoing HTTP call)', () => {
    const carrier: Record<string, string> = {};
    edgePropagator().inject(withRequestId(), carrier, defaultTextMapSetter);
    expect(carrier).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', baggage: 'request.id=req-1' });
  });

  it('leaves the baggage out of an outgoing HTTP call, keeping its trace context', () => {
    const span = trace.wrapSpanContext(spanContext);
    markOutboundHttp(span);
    const carrier: Record<string, string> = {};
    edgePropagator().inject(withRequestId(span), carrier, defaultTextMapSetter);
    expect(carrier).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  });

  it('shows a flow webhook path without its token, and other paths as they are', () => {
    expect(incomingSpanAttributes({ url: `/hooks/flows/${TOKEN}?a=1` } as IncomingMessage)).toEqual({ 'url.path': '/hooks/flows/[redacted]' });
    expect(incomingSpanAttributes({ url: '/api/v1/guilds/1' } as IncomingMessage)).toEqual({});
  });
});

describe('the public server', () => {
  /** The headers a request arrives with at the handler, sent with a trace context and baggage. */
  async function headersSeen(dropTraceContext: boolean) {
    let seen: IncomingMessage['headers'] = {};
    const server = await startGracefulServer({
      host: '127.0.0.1',
      port: 0,
      drainMs: 0,
      dropTraceContext,
      handler: (req, res) => {
        seen = req.headers;
        res.end();
      },
    });
    try {
      const traceContext = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'x=1', baggage: 'request.id=forged' };
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(`${server.origin}/api/v1/x`, { headers: { ...traceContext, 'x-other': 'kept' }, agent: false }, (res) => res.resume().on('end', resolve));
        req.on('error', reject).end();
      });
      return { traceparent: seen.traceparent, tracestate: seen.tracestate, baggage: seen.baggage, other: seen['x-other'] };
    } finally {
      await server.close();
    }
  }

  it('drops the trace context and baggage of incoming requests', async () => {
    expect(await headersSeen(true)).toEqual({ traceparent: undefined, tracestate: undefined, baggage: undefined, other: 'kept' });
  });

  it('keeps them when trusted (TRACE_TRUST_INCOMING=true)', async () => {
    expect(await headersSeen(false)).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'x=1', baggage: 'request.id=forged', other: 'kept' });
  });
});

describe('the error boundary', () => {
  it('logs a failed flow webhook call without its token', async () => {
    const { logger, lines } = captureLogs();
    const app = new Koa();
    app.use(errorBoundary(logger));
    app.use(() => {
      throw new Error('boom');
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/flows/${TOKEN}`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(500);
      expect(lines.map((line) => [line.msg, line.path])).toEqual([['request failed', '/hooks/flows/[redacted]']]);
      expect(JSON.stringify(lines)).not.toContain(TOKEN);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

