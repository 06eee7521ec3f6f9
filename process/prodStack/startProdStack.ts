import { join } from 'node:path';
import { clearGatewaySessions } from '../../db/bot/gatewaySessions.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createDatabase } from '../../db/pool.js';
import type { Config } from '../../src/core/config.js';
import { DEMO_OWNER_ID, seedDemoGuild } from '../demo/demoGuild.js';
import { devApiKey } from '../dev/devCredentials.js';
import { startDevFakeDiscord } from '../dev/devFakeDiscord.js';
import type { Defer } from '../entrypoints/shutdown.js';
import { ensureDatabase, startEmbeddedPostgres, withDatabase } from '../infra/embeddedPostgres.js';
import { attachFakeGateway } from '../infra/fakeDiscord/index.js';
import { freePort } from '../infra/freePort.js';
import { readTemporalDevSettings } from '../infra/temporalDevSettings.js';
import { startTemporalServer } from '../infra/temporalServer.js';
import { resolveTemporalServerBinaries } from '../infra/temporalServerBinaries.js';
import { startServiceChild, untilReady, type ServiceChild } from './serviceChild.js';

const APP_DATABASE = 'community_bot';
const ENTRYPOINTS = {
  api: 'process/entrypoints/api.ts',
  worker: 'process/entrypoints/worker.ts',
  bot: 'process/entrypoints/bot.ts',
  egress: 'process/entrypoints/discordEgress.ts',
} as const;

export interface ProdStackProcess {
  name: string;
  pid: number;
  /** Its operator endpoints (/livez, /readyz, /metrics): an api's API_OPS_PORT; its API is in `apiOrigins`. */
  origin: string;
  logFile: string;
}

export interface ProdStack {
  databaseUrl: string;
  temporal: { address: string; namespace: string; version: string; historyShards: number; logFile: string };
  fakeDiscordUrl: string;
  guildId: string;
  apiKey: string;
  apiOrigins: string[];
  processes: ProdStackProcess[];
}

/**
 * The production topology on loopback: PostgreSQL (DATABASE_URL's server, else an embedded one in `workDir`), the
 * real Temporal server on it, two api processes, two worker processes and the bot, all through the Discord egress
 * to the in-repo fake Discord holding the demo guild (as `npm run dev -- --platform fake-discord`), each process on
 * its own ports.
 */
export async function startProdStack(config: Config, root: string, workDir: string, log: (line: string) => void, defer: Defer): Promise<ProdStack> {
  // First: a binary that is missing and cannot be built ends the start before anything runs.
  const binaries = await resolveTemporalServerBinaries(config.temporal, log);
  // DATABASE_URL is the service's database; Temporal's two go beside it on the same server.
  const { serverUrl, databaseUrl } = config.database.url
    ? { serverUrl: config.database.url, databaseUrl: config.database.url }
    : await startPostgres(workDir, log, defer);
  const database = createDatabase(databaseUrl, 2);
  defer(database.close);
  await migrateToLatest(database.db);
  const guildId = await seedDemoGuild(database.db);
  const apiKey = await devApiKey(database.db, guildId, DEMO_OWNER_ID, join(workDir, 'credentials.json'));

  const settings = await readTemporalDevSettings(join(root, 'temporal-dev.yml'));
  const { namespace, historyShards } = config.temporal;
  const temporal = await startTemporalServer({ binaries, postgresUrl: serverUrl, namespace, settings, historyShards, fresh: false, workDir, log });
  defer(temporal.stop);

  const discord = await startDevFakeDiscord(database.db, guildId, config);
  defer(discord.fake.close);
  attachFakeGateway(discord.fake);
  // A fake started now never saw the gateway sessions an earlier run of the stack saved.
  await clearGatewaySessions(database.db);

  const common: Record<string, string> = {
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
    PLATFORM: 'discord',
    DISCORD_TOKEN: discord.fake.token,
    WEBHOOK_ALLOW_INSECURE_LOCAL: String(config.webhooks.allowInsecureLocal),
    // No load balancer in front of the apis to wait for: a stop closes their listeners at once.
    SHUTDOWN_PROPAGATION_MS: '0',
  };
  const processes: ProdStackProcess[] = [];
  const start = async (name: string, kind: keyof typeof ENTRYPOINTS, env: Record<string, string>, origin: string) => {
    const child = await startServiceChild(name, ENTRYPOINTS[kind], { ...common, ...env }, join(workDir, `${name}.log`), root);
    defer(child.stop);
    processes.push({ name, pid: child.pid, origin, logFile: child.logFile });
    return { child, ready: `${origin}/readyz` };
  };
  const started: Array<{ child: ServiceChild; ready: string }> = [];
  // First the egress: every other process's DISCORD_API_URL points at it, and it alone talks to Discord.
  const egressPort = await freePort();
  const egress = await start('discord-egress', 'egress', { DISCORD_EGRESS_PORT: String(egressPort), DISCORD_UPSTREAM_URL: discord.fake.apiUrl }, `http://127.0.0.1:${egressPort}`);
  await untilReady(egress.child, egress.ready);
  common.DISCORD_API_URL = `http://127.0.0.1:${egressPort}/api`;
  for (const n of [1, 2]) {
    const port = await freePort();
    started.push(await start(`worker-${n}`, 'worker', { WORKER_PORT: String(port), TEMPORAL_METRICS_PORT: String(await freePort()) }, `http://127.0.0.1:${port}`));
  }
  const apiOrigins: string[] = [];
  for (const n of [1, 2]) {
    const [port, opsPort] = [await freePort(), await freePort()];
    const origin = `http://127.0.0.1:${port}`;
    const oauth = discord.config.console.discordOAuth!;
    // Each api is its own console origin, so each has its own sign-in callback.
    const signIn = { DISCORD_CLIENT_ID: oauth.clientId, DISCORD_CLIENT_SECRET: oauth.clientSecret, CONSOLE_REDIRECT_URI: `${origin}/console/oauth/callback`, DISCORD_OAUTH_AUTHORIZE_URL: oauth.authorizeUrl };
    started.push(await start(`api-${n}`, 'api', { PORT: String(port), API_OPS_PORT: String(opsPort), ...signIn }, `http://127.0.0.1:${opsPort}`));
    apiOrigins.push(origin);
  }
  const botPort = await freePort();
  started.push(await start('bot', 'bot', { BOT_PORT: String(botPort) }, `http://127.0.0.1:${botPort}`));
  log('Waiting for every process to be ready...');
  for (const { child, ready } of started) await untilReady(child, ready);

  return {
    databaseUrl,
    temporal: { address: temporal.address, namespace, version: temporal.version, historyShards, logFile: temporal.logFile },
    fakeDiscordUrl: discord.fake.apiUrl,
    guildId,
    apiKey,
    apiOrigins,
    processes,
  };
}

async function startPostgres(workDir: string, log: (line: string) => void, defer: Defer) {
  const port = await freePort();
  log(`Starting PostgreSQL on 127.0.0.1:${port}...`);
  const postgres = await startEmbeddedPostgres({ dataDir: join(workDir, 'pgdata'), port, persistent: true });
  defer(postgres.stop);
  await ensureDatabase(postgres.url, APP_DATABASE);
  return { serverUrl: postgres.url, databaseUrl: withDatabase(postgres.url, APP_DATABASE) };
}
