import { SpanKind } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { describe, expect, it } from 'vitest';
import { tracingEnabled } from '../../process/tracing/tracingSettings.js';
import { toReadableSpan } from '../../process/tracing/workflowSpanSink.js';

describe('tracing settings', () => {
  it('is off without OTEL_* variables, and on with an OTLP endpoint or OTEL_TRACES_EXPORTER=otlp', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_SERVICE_NAME: 'api' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'console' })).toBe(false);
  });

  it('stays off when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever else is set', () => {
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'TRUE', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
  });
});

describe("a workflow's span leaving its sandbox", () => {
  it('is rebuilt in the 2.x shape the OTLP exporter reads: parent span context, instrumentation scope, plain info attributes', () => {
    const resource = resourceFromAttributes({ 'service.name': 'worker' });
    const span = toReadableSpan(
      {
        name: 'RunWorkflow:xpChange',
        kind: SpanKind.INTERNAL,
        spanContext: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1, traceState: 'vendor=x' },
        parentSpanId: 'c'.repeat(16),
        startTime: [1, 0],
        endTime: [2, 0],
        status: { code: 1 },
        attributes: { a: 1 },
        links: [],
        events: [],
        duration: [1, 0],
        ended: true,
        droppedAttributesCount: 0,
        droppedEventsCount: 0,
        droppedLinksCount: 0,
        instrumentationLibrary: { name: '@temporalio/interceptor-workflow' },
      },
      { workflowId: 'xp-change/1', attempt: 1, memo: { nested: true } },
      resource,
    );
    expect(span.parentSpanContext).toEqual({ traceId: 'a'.repeat(32), spanId: 'c'.repeat(16), traceFlags: 1, isRemote: false });
    expect(span.instrumentationScope).toEqual({ name: '@temporalio/interceptor-workflow' });
    expect(span.spanContext().traceState?.get('vendor')).toBe('x');
    expect(span.attributes).toEqual({ a: 1, workflowId: 'xp-change/1', attempt: 1 });
    expect(span.resource).toBe(resource);
  });

  it('has no parent span context when it is a root', () => {
    const span = toReadableSpan(
      {
        name: 'RunWorkflow:x',
        kind: SpanKind.INTERNAL,
        spanContext: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 },
        startTime: [1, 0],
        endTime: [2, 0],
        status: { code: 0 },
        attributes: {},
        links: [],
        events: [],
        duration: [1, 0],
        ended: true,
        droppedAttributesCount: 0,
        droppedEventsCount: 0,
        droppedLinksCount: 0,
        instrumentationLibrary: { name: 'x' },
      },
      {},
      resourceFromAttributes({}),
    );
    expect(span.parentSpanContext).toBeUndefined();
  });
});
