import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger.js';

/** One pass of a relay: starts what a crash or an outage left unstarted; returns how many it started. */
export type RelayPass = () => Promise<number>;

/**
 * Runs every pass each `intervalMs` until the signal aborts. The api starts workflows right after its
 * commits; this loop (in every worker process) is what makes those starts durable.
 */
export async function runStartRelay(passes: RelayPass[], logger: Logger, signal: AbortSignal, intervalMs = 2_000): Promise<void> {
  while (!signal.aborted) {
    for (const pass of passes) {
      try {
        const started = await pass();
        if (started > 0) logger.info({ started }, 'start relay started workflows');
      } catch (err) {
        logger.warn({ err }, 'start relay pass failed; retrying next pass');
      }
    }
    // The promise timer drops its abort listener when it fires, so a long-running relay does not pile them up.
    await sleep(intervalMs, undefined, { signal }).catch(() => {});
  }
}
