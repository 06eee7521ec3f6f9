import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Config } from '../../src/core/config.js';
import { readTemporalDevSettings } from '../infra/temporalDevSettings.js';

/** A port `npm run dev` is about to listen on, and what to change to move it. */
export interface DevPort {
  what: string;
  host: string;
  port: number;
  /** The setting that chooses the port. */
  setting: string;
}

export interface TakenPort extends DevPort {
  /** EADDRINUSE, EACCES, ... */
  code: string;
}

/**
 * The ports dev will listen on: the embedded PostgreSQL (without DATABASE_URL), the Temporal dev server and its
 * UI (without TEMPORAL_ADDRESS, from temporal-dev.yml), the api and its probes (unless PORT=0, API_OPS_PORT=0), the worker's probes and
 * metrics (unless WORKER_PORT=0).
 */
export async function devPorts(config: Config, root: string, withBot = config.platform.kind === 'discord'): Promise<DevPort[]> {
  const ports: DevPort[] = [];
  if (!config.database.url) {
    ports.push({ what: 'embedded PostgreSQL', host: '127.0.0.1', port: config.dev.postgresPort, setting: 'DEV_POSTGRES_PORT' });
  }
  if (!config.temporal.address) {
    const settings = await readTemporalDevSettings(join(root, 'temporal-dev.yml'));
    ports.push({ what: 'Temporal dev server', host: settings.ip, port: settings.port, setting: 'port in temporal-dev.yml' });
    ports.push({ what: 'Temporal UI', host: settings.ip, port: settings.uiPort, setting: 'uiPort in temporal-dev.yml' });
  }
  if (config.http.port !== 0) ports.push({ what: 'api', host: config.http.host, port: config.http.port, setting: 'PORT' });
  if (config.ops.apiOpsPort !== 0) ports.push({ what: 'api probes', host: config.http.host, port: config.ops.apiOpsPort, setting: 'API_OPS_PORT' });
  if (config.ops.workerPort !== 0) ports.push({ what: 'worker probes', host: config.http.host, port: config.ops.workerPort, setting: 'WORKER_PORT' });
  if (withBot && config.bot.port !== 0) ports.push({ what: 'bot probes', host: config.http.host, port: config.bot.port, setting: 'BOT_PORT' });
  if (withBot && config.egress.port !== 0) ports.push({ what: 'Discord egress', host: config.http.host, port: config.egress.port, setting: 'DISCORD_EGRESS_PORT' });
  return ports;
}

/** Undefined when something could listen on host:port right now, else the error code of the attempt. */
export function listenRefusal(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/** The ports of `ports` something else already listens on (or that cannot be used). */
export async function takenPorts(ports: DevPort[]): Promise<TakenPort[]> {
  const taken: TakenPort[] = [];
  for (const p of ports) {
    const code = await listenRefusal(p.host, p.port);
    if (code) taken.push({ ...p, code });
  }
  return taken;
}

/** What an operator needs to know when dev cannot have its ports: which, why, and how to stop the other stack. */
export function portsTakenMessage(taken: TakenPort[]): string {
  const lines = taken.map((p) =>
    p.code === 'EADDRINUSE'
      ? `  ${p.host}:${p.port} (${p.what}, ${p.setting}) is already in use`
      : `  ${p.host}:${p.port} (${p.what}, ${p.setting}) cannot be used: ${p.code}`,
  );
  const inUse = taken.filter((p) => p.code === 'EADDRINUSE');
  // The api's two ports alone are an `npm run api`; anything more is a dev stack's.
  const devStack = inUse.some((p) => p.what !== 'api' && p.what !== 'api probes');
  const api = taken.find((p) => p.what === 'api');
  const shown = (inUse.length > 0 ? inUse : taken).map((p) => `-iTCP:${p.port}`).join(' ');
  return [
    `Cannot start: ${taken.length === 1 ? 'a port' : 'ports'} npm run dev needs ${taken.length === 1 ? 'is' : 'are'} taken. Nothing was started.`,
    ...lines,
    ...(devStack
      ? [
          'Another `npm run dev` seems to be running (in another terminal, or left behind by one that was killed).',
          `Stop it with Ctrl-C in its terminal, or with kill -INT <pid> of the node process${api ? ` listening on port ${api.port}` : ''}: it stops its PostgreSQL and Temporal too.`,
        ]
      : ['Another program is listening there (perhaps an `npm run api`); stop it, or choose another port.']),
    `What holds ${inUse.length === 1 ? 'it' : 'them'}: lsof -nP ${shown} -sTCP:LISTEN`,
    'To run a second stack beside it instead: set DEV_POSTGRES_PORT and PORT, and TEMPORAL_ADDRESS (or change the ports in temporal-dev.yml).',
  ].join('\n');
}

export class DevPortsTakenError extends Error {
  constructor(readonly taken: TakenPort[]) {
    super(portsTakenMessage(taken));
    this.name = 'DevPortsTakenError';
  }
}

/** Refuses to start dev while any of its ports is taken, before anything is started. */
export async function ensureDevPortsFree(ports: DevPort[]): Promise<void> {
  const taken = await takenPorts(ports);
  if (taken.length > 0) throw new DevPortsTakenError(taken);
}
