import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** The running tracing of a process: what the Temporal client and worker need to join it, and how to flush it. */
export interface Tracing {
  processor: SpanProcessor;
  resource: Resource;
  shutdown(): Promise<void>;
}

// Kept apart from startTracing so that reading it does not load the SDK (tests and tools never start tracing).
let active: Tracing | undefined;

/** The process's tracing, or undefined when it is off (the default). */
export function activeTracing(): Tracing | undefined {
  return active;
}

export function setActiveTracing(tracing: Tracing): void {
  active = tracing;
}
