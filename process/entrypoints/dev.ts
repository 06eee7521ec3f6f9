import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateToLatest } from '../../db/migrate.js';
import { createDatabase } from '../../db/pool.js';
import { loadConfig, type Config } from '../../src/core/config.js';
import { DEMO_OWNER_ID, seedDemoGuild } from '../demo/demoGuild.js';
import { devBanner } from '../dev/banner.js';
import { devApiKey, writeDevCredentials } from '../dev/devCredentials.js';
import { startDevInfrastructure, withInfrastructure } from '../dev/devInfrastructure.js';
import { withDevSignIn } from '../dev/devSignIn.js';
import { withLocalWebhooks } from '../dev/localWebhooks.js';
import { startDevBot } from '../dev/devBot.js';
import { devPlatformChoice, startDevFakeDiscord } from '../dev/devFakeDiscord.js';
import type { FakeDiscord } from '../infra/fakeDiscord/index.js';
import { devPorts, ensureDevPortsFree } from '../dev/portCheck.js';
import { createLogger } from '../../src/core/logger.js';
import { buildApiDeps, createTemporalGateway, sessionOptionsOf, startApiServer, startWorker } from '../wiring.js';
import { startDiscordEgress } from '../egress/startEgress.js';
import { shareProcessLatch } from '../latchSharing.js';
import { systemClock } from '../../src/core/clock.js';
import { runUntilSignal } from './shutdown.js';

// `npm run dev`: the whole service on one machine with embedded defaults (README, command 1).
const root = fileURLToPath(new URL('../..', import.meta.url));
const say = (line: string) => console.log(`[dev] ${line}`);

runUntilSignal(async (defer) => {
  const platformChoice = devPlatformChoice(process.argv.slice(2));
  const bootConfig = withLocalWebhooks(loadConfig());
  // Before anything starts: a second dev would otherwise fail half-way (PostgreSQL's start says nothing).
  await ensureDevPortsFree(await devPorts(bootConfig, root, platformChoice === 'fake-discord' || bootConfig.platform.kind === 'discord'));
  const infra = await startDevInfrastructure(bootConfig, root, say, defer);
  // No load balancer in front of dev: Ctrl-C stops the api at once rather than after a propagation delay.
  let config: Config = Object.freeze({ ...withInfrastructure(bootConfig, infra), ops: Object.freeze({ ...bootConfig.ops, propagationMs: 0 }) });
  const logger = createLogger(config.logLevel, 'dev');

  const database = createDatabase(infra.databaseUrl, config.database.poolMax, sessionOptionsOf(config, 'dev', logger));
  defer(database.close);
  await migrateToLatest(database.db);
  const guildId = await seedDemoGuild(database.db);
  let fakeDiscord: FakeDiscord | undefined;
  if (platformChoice === 'fake-discord') {
    // The whole stack through the Discord adapter, against a fake of Discord's API holding the demo guild.
    const started = await startDevFakeDiscord(database.db, guildId, config);
    defer(started.fake.close);
    config = started.config;
    fakeDiscord = started.fake;
    say(`fake Discord API on ${started.fake.apiUrl} (the demo guild; PLATFORM=discord)`);
  }
  if (config.platform.kind === 'discord') {
    // Every Discord request of the stack (api, worker, bot) through the egress, as in production (docs/deployment.md).
    const upstreamUrl = config.platform.apiUrl;
    const egress = await startDiscordEgress(config, database.db, logger, { upstreamUrl });
    defer(egress.close);
    defer(shareProcessLatch(config, database.db, systemClock, logger, 'dev').close);
    config = Object.freeze({ ...config, platform: Object.freeze({ ...config.platform, apiUrl: egress.apiUrl }) });
    say(`Discord egress on ${egress.apiUrl} (to ${upstreamUrl})`);
  }
  config = withDevSignIn(config);
  const credentialsFile = join(root, '.dev', 'credentials.json');
  const apiKey = await devApiKey(database.db, guildId, DEMO_OWNER_ID, credentialsFile);
  const { host, port, publicBaseUrl } = config.http;
  const credentials = { baseUrl: publicBaseUrl ?? `http://${host}:${port}/api/v1`, temporalUiUrl: infra.temporalUiUrl, guildId, apiKey };
  // Saved before the api starts, so a start that fails later (a port in use) reuses the key next time.
  await writeDevCredentials(credentialsFile, credentials);

  const temporal = createTemporalGateway(config);
  defer(() => temporal.client.connection.close());
  const worker = await startWorker(config, database.db, temporal, logger);
  defer(worker.stop);
  const api = await startApiServer(buildApiDeps(config, database.db, temporal, logger));
  defer(api.close);
  if (config.platform.kind === 'discord') {
    const devBot = await startDevBot(config, database.db, logger, say, fakeDiscord);
    defer(devBot.stop);
    say(`bot connected to the gateway; probes on ${devBot.probes.origin}`);
  }
  const baseUrl = publicBaseUrl ?? api.url;
  if (baseUrl !== credentials.baseUrl) await writeDevCredentials(credentialsFile, { ...credentials, baseUrl });

  console.log(
    devBanner({
      baseUrl,
      temporalUiUrl: infra.temporalUiUrl,
      temporalAddress: infra.temporalAddress,
      guildId,
      apiKey,
      localWebhooks: config.webhooks.allowInsecureLocal,
      console: {
        url: `${baseUrl.replace(/\/api\/v1\/?$/, '')}/console`,
        localManager: config.console.devSignIn ? { userId: DEMO_OWNER_ID, name: 'demo-owner' } : null,
        fakeDiscordSignIn: platformChoice === 'fake-discord',
      },
    }),
  );
}, say);
