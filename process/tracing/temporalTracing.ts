import { createRequire } from 'node:module';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Tracing } from './activeTracing.js';
import { workflowSpanSink } from './workflowSpanSink.js';

const require = createRequire(import.meta.url);

/** The Temporal client's interceptors: a workflow start is a span whose context travels in the start's headers. */
export function tracingClientInterceptors(tracing: Tracing | undefined) {
  return tracing ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : undefined;
}

/** What a worker adds when tracing is on: the workflow sandbox's interceptors and span sink, and the activities' spans. */
export function workerTracing(tracing: Tracing) {
  const activity: ActivityInterceptorsFactory = (ctx) => ({
    inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
    outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
  });
  return {
    workflowInterceptorModules: [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')],
    activity,
    sinks: { exporter: workflowSpanSink(tracing.processor, tracing.resource) },
  };
}
