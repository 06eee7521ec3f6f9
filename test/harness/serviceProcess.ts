import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** An api or worker process started the way the container image starts it (`node --import tsx <entrypoint>`). */
export interface ServiceProcess {
  child: ChildProcess;
  /** Its stdout lines so far (pino JSON, one object per line) and its stderr. */
  lines: string[];
  stderr: string[];
  /** Resolves with the exit code and signal when it ends, by itself or stopped. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then its graceful stop (bounded by the process itself). */
  stop(): Promise<void>;
}

const ENTRYPOINTS = { api: 'process/entrypoints/api.ts', worker: 'process/entrypoints/worker.ts' } as const;

export function startServiceProcess(kind: keyof typeof ENTRYPOINTS, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRYPOINTS[kind]], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const stderr: string[] = [];
  splitLines(child.stdout!, (line) => lines.push(line));
  splitLines(child.stderr!, (line) => stderr.push(line));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  return {
    child,
    lines,
    stderr,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Waits until `url` (a /readyz) answers 200, or the process ends (an error naming its stderr). */
export async function untilReady(service: ServiceProcess, url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      throw new Error(`the process ended before it was ready:\n${service.stderr.join('\n')}`);
    }
    const status = await fetch(url).then((res) => res.status, () => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${timeoutMs} ms:\n${service.stderr.join('\n')}`);
    await sleep(100);
  }
}

function splitLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) if (part !== '') onLine(part);
  });
}
