import type { Kysely } from 'kysely';
import type { AuditActor } from '../../db/shared/audit.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { Platform } from '../../src/core/platform.js';
import type { ApplicationCommands } from '../../src/platform/discord/applicationCommands.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import type { OutboxEvent } from '../../src/events/eventTypes.js';
import type { FlagSpec, FlagValues } from './args.js';

/**
 * How the fan-out of a command's committed events began: `started` by the command, `relay` left to the worker's
 * start relay (no Temporal configured or reachable: it starts them within seconds once a worker runs), `none`
 * when there were no events.
 */
export type FanoutStart = 'started' | 'relay' | 'none';

export interface AdminContext {
  db: Kysely<Database>;
  clock: Clock;
  /** Who the audit log names when a command does not say `--operator`. */
  operator: string;
  allowInsecureWebhookUrls: boolean;
  /** Temporal, for commands that act on workflows (a flow run's cancel); undefined when none is configured. */
  temporal?: () => Promise<TemporalGateway>;
  /** The chat platform when it is not the local tables (PLATFORM=discord); undefined on the local platform. */
  platform?: Platform;
  /** The bot application's commands on Discord (PLATFORM=discord); undefined on the local platform. */
  applicationCommands?: ApplicationCommands;
  /** Starts the fan-out (webhooks) of events the command committed; never throws. */
  startFanouts(events: OutboxEvent[]): Promise<FanoutStart>;
}

/** What a command prints: `json` with --json, otherwise the text lines. */
export interface CommandOutput {
  json: unknown;
  text: string[];
}

export interface AdminCommand<F extends FlagSpec = FlagSpec> {
  name: string;
  summary: string;
  flags: F;
  run(flags: FlagValues<F>, ctx: AdminContext): Promise<CommandOutput>;
}

export interface CommandGroup {
  name: string;
  summary: string;
  commands: AdminCommand[];
}

/** Keeps each command's flag types precise while groups hold commands of different shapes. */
export const defineCommand = <F extends FlagSpec>(command: AdminCommand<F>): AdminCommand => command as unknown as AdminCommand;

/** The server a command acts on. */
export const GUILD_FLAG = {
  guild: { type: 'string', placeholder: 'ID', required: true, help: 'the guild id' },
} as const satisfies FlagSpec;

export const OPERATOR_FLAG = {
  operator: { type: 'string', placeholder: 'NAME', help: 'who the audit log names (default: your OS user name)' },
} as const satisfies FlagSpec;

export const operatorActor = (ctx: AdminContext, name: string | undefined): AuditActor => ({
  type: 'operator',
  name: name?.trim() || ctx.operator,
});
