import { createTraceState, type SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { OpenTelemetryWorkflowExporter, SerializableSpan } from '@temporalio/interceptors-opentelemetry';
import type { InjectedSink } from '@temporalio/worker';

/**
 * The sink that carries the workflow's own spans out of its sandbox. The interceptor package's makeWorkflowExporter
 * rebuilds them in the shape of OpenTelemetry 1.x (`parentSpanId`, `instrumentationLibrary`); the 2.x OTLP
 * exporter reads `parentSpanContext` and `instrumentationScope` and, without them, drops the whole batch without a
 * word. This sink rebuilds them in the 2.x shape and hands them to the process's own span processor.
 */
export function workflowSpanSink(processor: SpanProcessor, resource: Resource): InjectedSink<OpenTelemetryWorkflowExporter> {
  return {
    export: {
      fn: (info, spans) => {
        for (const span of spans) processor.onEnd(toReadableSpan(span, { ...info }, resource));
      },
    },
  };
}

export function toReadableSpan(span: SerializableSpan, workflowInfo: Record<string, unknown>, resource: Resource): ReadableSpan {
  const { traceState, ...context } = span.spanContext;
  const spanContext: SpanContext = { ...context, ...(traceState ? { traceState: createTraceState(traceState) } : {}) };
  const parentSpanContext: SpanContext | undefined = span.parentSpanId
    ? { traceId: spanContext.traceId, spanId: span.parentSpanId, traceFlags: spanContext.traceFlags, isRemote: false }
    : undefined;
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => spanContext,
    parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes: { ...span.attributes, ...primitiveAttributes(workflowInfo) },
    links: span.links,
    events: span.events,
    duration: span.duration,
    ended: span.ended,
    resource,
    instrumentationScope: span.instrumentationLibrary,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

// The sink's info is the run's WorkflowInfo; only its plain values are attributes (OTLP refuses objects).
function primitiveAttributes(info: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(info)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}
