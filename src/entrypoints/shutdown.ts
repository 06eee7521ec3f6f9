/**
 * Runs the stop steps in order once on SIGINT or SIGTERM, each even if an earlier one failed (so no child
 * process is left behind), then exits; a second signal exits at once.
 */
export function stopOnSignal(steps: Array<() => Promise<void>>, log: (line: string) => void = console.log): void {
  const stop = async () => {
    let failure: unknown;
    for (const step of steps) await step().catch((err: unknown) => (failure ??= err));
    if (failure) throw failure;
  };
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal} received, stopping...`);
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
