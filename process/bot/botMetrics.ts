import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from '../../src/core/metrics.js';

// The bot's Prometheus series, served on BOT_PORT beside its probes; docs/metrics.md lists them.

export const gatewayEvents = new Counter({
  name: 'bot_gateway_events_total',
  help: 'Gateway dispatches received, by event type (MESSAGE_CREATE, GUILD_MEMBER_ADD ...).',
  labelNames: ['type'] as const,
  registers: [registry],
});

export const dispatchQueueDepth = new Gauge({
  name: 'bot_dispatch_queue_depth',
  help: 'Dispatches received and not yet handled; at its bound the bot stops reading the gateway.',
  registers: [registry],
});

export const dispatchRetries = new Counter({
  name: 'bot_dispatch_retries_total',
  help: 'Handlings retried because a dependency (the database) was out, by event type.',
  labelNames: ['type'] as const,
  registers: [registry],
});

export const dispatchFailures = new Counter({
  name: 'bot_dispatch_failures_total',
  help: 'Dispatches given up for a failure that is not an outage (logged with the error), by event type.',
  labelNames: ['type'] as const,
  registers: [registry],
});

export const dispatchLatency = new Histogram({
  name: 'bot_dispatch_handled_seconds',
  help: 'From receiving a dispatch to its handling committed, by event type.',
  labelNames: ['type'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});

export const gatewayPaused = new Gauge({
  name: 'bot_gateway_paused',
  help: '1 while the bot has stopped reading the gateway because its dispatch queue is full.',
  registers: [registry],
});

export const gatewaySessionsLost = new Counter({
  name: 'bot_gateway_sessions_lost_total',
  help: 'Gateway sessions Discord ended before the bot could resume them (a refused resume): the dispatches not yet handled then are not replayed; members are reconciled.',
  registers: [registry],
});

export const interactionsTooOld = new Counter({
  name: 'bot_interactions_too_old_total',
  help: "Interactions not acted on because they were past 2.5 s old when their turn came (Discord wants the answer within 3 s of the press).",
  registers: [registry],
});
