import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

/**
 * A trace collector on loopback, as an operator's would be: it accepts `POST /v1/traces` in OTLP/HTTP JSON (what
 * @opentelemetry/exporter-trace-otlp-http sends), gzip or not, and keeps every span. A protobuf export is refused
 * with 415, so a change of exporter shows here rather than as spans that never arrive.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      if (!String(req.headers['content-type']).startsWith('application/json')) return void res.writeHead(415).end();
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      spans.push(...decodeExport(JSON.parse(body.toString('utf8'))));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeExport(request: { resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ scope?: { name?: string }; spans?: Array<Record<string, unknown>> }> }> }): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(attributeMap(resourceSpans.resource?.attributes)['service.name'] ?? '');
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        service,
        scope: scopeSpans.scope?.name ?? '',
        traceId: String(span.traceId),
        spanId: String(span.spanId),
        parentSpanId: String(span.parentSpanId ?? ''),
        name: String(span.name),
        attributes: attributeMap(span.attributes as KeyValue[] | undefined),
      })),
    );
  });
}

function attributeMap(attributes: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));
}
