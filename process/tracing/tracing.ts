import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation } from '@opentelemetry/instrumentation-koa';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { activeTracing, setActiveTracing, type Tracing } from './activeTracing.js';
import { edgePropagator, incomingSpanAttributes, markOutboundHttp } from './publicEdge.js';
import { tracingEnabled } from './tracingSettings.js';

/**
 * Query parameters whose values spans show as REDACTED: the console's OAuth2 callback carries Discord's `code` and
 * `state` (single-use, yet credentials until spent) and may carry `error_description`; then the instrumentation's
 * own defaults (signed-URL parameters), which a list given here replaces.
 */
const REDACTED_QUERY_PARAMS = [
  'code',
  'state',
  'error_description',
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
];

/**
 * Starts OpenTelemetry tracing when the OTEL_* variables ask for it (tracingSettings.ts). Must run before the
 * process loads koa, pg, http or undici: the entrypoints call it first and import the rest of the process after it.
 * ESM imports are patched through import-in-the-middle's loader hook, registered here for the instrumented modules
 * only; without it the Koa span is missing.
 */
export async function startTracing(serviceName: string, env: Record<string, string | undefined> = process.env): Promise<Tracing | undefined> {
  const running = activeTracing();
  if (running || !tracingEnabled(env)) return running;
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const resource = defaultResource().merge(resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? `community-bot-${serviceName}` }));
  const processor = new BatchSpanProcessor(new OTLPTraceExporter());
  const sdk = new NodeSDK({
    resource,
    spanProcessors: [processor],
    // Explicit, whatever OTEL_PROPAGATORS says: without a global W3C propagator the api's request, the workflow
    // and its activities become separate traces; baggage carries the request id to the worker's log lines, and
    // stays inside (publicEdge.ts).
    textMapPropagator: edgePropagator(),
    instrumentations: [
      // Probes and scrapes would be most of the spans and tell nothing.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(livez|readyz|metrics)\b/.test(req.url ?? ''),
        startIncomingSpanHook: incomingSpanAttributes,
        redactedQueryParamsServer: REDACTED_QUERY_PARAMS,
        redactedQueryParams: REDACTED_QUERY_PARAMS,
      }),
      new UndiciInstrumentation({ requestHook: markOutboundHttp }),
      new KoaInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  const tracing: Tracing = { processor, resource, shutdown: () => sdk.shutdown() };
  setActiveTracing(tracing);
  return tracing;
}
