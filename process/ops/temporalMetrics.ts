import { Runtime } from '@temporalio/worker';

/**
 * Serves the Temporal SDK's own metrics (task slots, poll and schedule-to-start latencies, sticky cache,
 * workflow and activity outcomes) on a Prometheus listener of its own at `host:port/metrics`, named the
 * Prometheus way (`_total` counters, unit suffixes, durations in seconds). Must run before the process opens
 * its first Temporal worker connection: the runtime is created once per process.
 */
export function installTemporalMetrics(host: string, port: number): void {
  Runtime.install({
    telemetryOptions: {
      metrics: {
        prometheus: { bindAddress: `${host}:${port}`, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true },
      },
    },
  });
}
