import type { IncomingMessage } from 'node:http';
import { trace, type Context, type Span, type TextMapPropagator, type TextMapSetter } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { redactedPath } from '../../src/flows/webhookPath.js';

// What a trace may carry across the service's edge. Inside, between the api, Temporal and the worker, the trace
// context and the baggage (the api request's id, for the worker's log lines) travel in Temporal's headers. Outside:
// incoming trace context is dropped by the public server itself (process/ops/gracefulServer.ts) unless
// TRACE_TRUST_INCOMING says so; outgoing HTTP calls (customers' webhook receivers, Discord, flow HTTP steps) carry
// the trace context but never the baggage; and a flow webhook's token never reaches a span.

const outboundHttpSpans = new WeakSet<Span>();

/** The undici instrumentation's request hook: marks the client span of an outgoing HTTP call, before propagation. */
export function markOutboundHttp(span: Span): void {
  outboundHttpSpans.add(span);
}

/** W3C baggage, except into an outgoing HTTP call's headers (the context injected there holds that call's own span). */
class InternalBaggagePropagator implements TextMapPropagator {
  private readonly baggage = new W3CBaggagePropagator();

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const span = trace.getSpan(context);
    if (span && outboundHttpSpans.has(span)) return;
    this.baggage.inject(context, carrier, setter);
  }

  extract(context: Context, carrier: unknown, getter: Parameters<TextMapPropagator['extract']>[2]): Context {
    return this.baggage.extract(context, carrier, getter);
  }

  fields(): string[] {
    return this.baggage.fields();
  }
}

/** The process's propagator: W3C trace context everywhere, W3C baggage everywhere but into outgoing HTTP calls. */
export function edgePropagator(): TextMapPropagator {
  return new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new InternalBaggagePropagator()] });
}

/** The http instrumentation's start hook for incoming requests: the path as spans may show it. */
export function incomingSpanAttributes(request: IncomingMessage): Record<string, string> {
  const path = (request.url ?? '').split('?')[0]!;
  const shown = redactedPath(path);
  return shown === path ? {} : { 'url.path': shown };
}
