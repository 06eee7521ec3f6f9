import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * An api, worker or bot process of the stack, node itself as the process like in the container image, but from the
 * TypeScript source (`node --import tsx`) rather than the build.
 */
export interface ServiceChild {
  name: string;
  pid: number;
  logFile: string;
  /** Set once it has ended, by itself or stopped. */
  exitedWith(): string | undefined;
  /** SIGTERM, then its own graceful stop (bounded by the process), then SIGKILL if it still runs 20 s later. */
  stop(): Promise<void>;
}

const STOP_TIMEOUT_MS = 20_000;

/**
 * Starts `entrypoint` in its own process with the environment given on top of this one's (OTEL_*, LOG_LEVEL and
 * the rest of the operator's settings go through), its output appended to `logFile`. Stopped by its own pid:
 * a signal to an npx or tsx parent can leave the child running.
 */
export async function startServiceChild(name: string, entrypoint: string, env: Record<string, string>, logFile: string, cwd: string): Promise<ServiceChild> {
  const output = await open(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', entrypoint], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', output.fd, output.fd] });
  await output.close();
  let ended: string | undefined;
  const exited = once(child, 'exit').then(([code, signal]) => {
    ended = signal ? `signal ${String(signal)}` : `code ${String(code)}`;
  });
  return {
    name,
    pid: child.pid!,
    logFile,
    exitedWith: () => ended,
    async stop() {
      if (ended) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => false), sleep(STOP_TIMEOUT_MS).then(() => true)]);
      if (killed) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Waits until `url` (a /readyz) answers 200; fails at once when the process ends first. */
export async function untilReady(service: ServiceChild, url: string, timeoutMs = 180_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const ended = service.exitedWith();
    if (ended) throw new Error(`${service.name} ended (${ended}) before it was ready: see ${service.logFile}.`);
    if ((await fetch(url).then((res) => res.status, () => 0)) === 200) return;
    if (performance.now() > deadline) throw new Error(`${service.name} not ready at ${url} after ${timeoutMs / 1000} s: see ${service.logFile}.`);
    await sleep(250);
  }
}
