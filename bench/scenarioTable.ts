import { runBankRead } from './scenarios/bankRead.js';
import { runBankWrite } from './scenarios/bankWrite.js';
import { runLeaderboard } from './scenarios/levelsLeaderboard.js';
import { runInvitesLeaderboard } from './scenarios/invitesLeaderboard.js';
import { runShopBuy } from './scenarios/shopBuy.js';
import { runWebhookLatency, runWebhookSlowReceiver, runWebhookThroughput } from './scenarios/webhooks.js';
import { runTemporalCeiling } from './scenarios/temporalCeiling.js';
import { runXpLatency } from './scenarios/xpLatency.js';
import { runFlowRun } from './scenarios/flowRun.js';
import { runGiveawaysOpen } from './scenarios/giveawaysOpen.js';
import { runGiveawaysDraw } from './scenarios/giveawaysDraw.js';
import { runGiveawaysEnd } from './scenarios/giveawaysEnd.js';
import { runDiscordEffects } from './scenarios/discordEffects.js';
import { runGatewayIngest } from './scenarios/gatewayIngest.js';
import { runGatewayReady } from './scenarios/gatewayReady.js';
import { runGatewayRestart } from './scenarios/gatewayRestart.js';
import { runCommands } from './scenarios/commandsLatency.js';
import { runPurge } from './scenarios/purge.js';
import type { BenchValues } from './options.js';

// Latency scenarios first: `write` and `webhook-throughput` leave a backlog of workflows that Temporal
// keeps draining for a minute or two, which would slow whatever ran next.
export const SCENARIOS = {
  read: runBankRead,
  'xp-latency': runXpLatency,
  leaderboard: runLeaderboard,
  'invites-leaderboard': runInvitesLeaderboard,
  purge: runPurge,
  'webhook-latency': runWebhookLatency,
  'webhook-slow-receiver': runWebhookSlowReceiver,
  'flow-run': runFlowRun,
  write: runBankWrite,
  'shop-buy': runShopBuy,
  'webhook-throughput': runWebhookThroughput,
  'temporal-ceiling': runTemporalCeiling,
  // Last: the open giveaways keep the worker busy with their ends for minutes.
  draw: runGiveawaysDraw,
  'giveaways-end': runGiveawaysEnd,
  'giveaways-open': runGiveawaysOpen,
} as const;
// Scenarios that need neither PostgreSQL, Temporal nor the api: run first, and alone they start none of them (the
// stack's fixed PostgreSQL port and its 100,000-member seed are not theirs to wait for).
export const STANDALONE = {
  // The Discord adapter against the fake Discord with Discord's limits.
  'discord-effects': (values: BenchValues) => runDiscordEffects(Number(values['discord-changes'])),
  // One bot process fed MESSAGE_CREATE by the fake gateway, with a PostgreSQL of its own.
  'gateway-ingest': (values: BenchValues) =>
    runGatewayIngest({ rates: values['ingest-rates'].split(',').map(Number), stepSeconds: Number(values['ingest-step-seconds']), rounds: Number(values['ingest-rounds']) }),
  // One new session of many servers: time to READY, to servers handled and to members reconciled, REST spent.
  'gateway-ready': (values: BenchValues) => runGatewayReady({ guilds: Number(values['ready-guilds']), members: Number(values['ready-members']) }),
  // `npm run bot` fed messages while it is stopped (SIGTERM) and killed (SIGKILL): each counted once.
  'gateway-restart': (values: BenchValues) => runGatewayRestart({ guilds: Number(values['restart-guilds']), rate: Number(values['restart-rate']), seconds: Number(values['restart-seconds']) }),
  // `/rank`, `/balance` and `/leaderboard` through the fake gateway to `npm run bot`, timed from each interaction's snowflake.
  commands: (values: BenchValues) => runCommands({ rows: Number(values['commands-rows']), rate: Number(values['commands-rate']), seconds: Number(values['commands-seconds']) }),
} as const;
export type ScenarioName = keyof typeof SCENARIOS | keyof typeof STANDALONE;
export type ScenarioResult = Awaited<ReturnType<(typeof SCENARIOS)[keyof typeof SCENARIOS] | (typeof STANDALONE)[keyof typeof STANDALONE]>>;
/** Every scenario's name, in the order `--only` runs them by default: the standalone ones first. */
export const SCENARIO_NAMES = [...Object.keys(STANDALONE), ...Object.keys(SCENARIOS)] as ScenarioName[];
