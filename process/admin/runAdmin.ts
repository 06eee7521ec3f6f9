import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { Platform } from '../../src/core/platform.js';
import type { ApplicationCommands } from '../../src/platform/discord/applicationCommands.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import type { OutboxEvent } from '../../src/events/eventTypes.js';
import { startFanouts } from '../../src/events/outbox.js';
import { parseFlags } from './args.js';
import type { AdminCommand, CommandGroup, FanoutStart } from './command.js';
import { applicationGroup } from './applicationCommands.js';
import { toAdminError, usageError } from './errors.js';
import { consoleGroup } from './consoleCommands.js';
import { discordGroup } from './discordCommands.js';
import { guildGroup } from './guildCommands.js';
import { commandHelp, generalHelp, groupHelp } from './help.js';
import { keyGroup } from './keyCommands.js';
import { levelGroup } from './levelCommands.js';
import { memberGroup } from './memberCommands.js';
import { simulateGroup } from './simulateCommands.js';
import { ticketGroup } from './ticketCommands.js';
import { flowGroup } from './flowCommands.js';
import { shopGroup } from './shopCommands.js';
import { webhookGroup } from './webhookCommands.js';

const GROUPS: CommandGroup[] = [guildGroup, memberGroup, keyGroup, webhookGroup, ticketGroup, applicationGroup, levelGroup, flowGroup, shopGroup, consoleGroup, discordGroup, simulateGroup];

export interface AdminDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Default audit name of the operator (the entrypoint passes the OS user name). */
  operator: string;
  /** Operator setting for local development: webhook URLs may use http:// and loopback. */
  allowInsecureWebhookUrls?: boolean;
  /**
   * Temporal, where commands that emit events start their fan-out (webhooks) after the commit; called once, on the
   * first such command. Without it, or when it fails, the worker's start relay starts them within seconds.
   */
  connectTemporal?: () => Promise<TemporalGateway>;
  /** The chat platform when it is not the local tables (PLATFORM=discord): `guild create` reads the server from it. */
  platform?: Platform;
  /** The bot application's commands on Discord (PLATFORM=discord): `discord commands sync` registers them. */
  applicationCommands?: ApplicationCommands;
  /** Each call is one line of output, without its newline. */
  stdout(line: string): void;
  stderr(line: string): void;
}

/** Starts fan-outs after a commit, as the api does; a failure leaves them to the relay, so the command's work stands. */
function fanoutStarter(deps: AdminDeps): (events: OutboxEvent[]) => Promise<FanoutStart> {
  let gateway: Promise<TemporalGateway> | undefined;
  return async (events) => {
    if (events.length === 0) return 'none';
    if (!deps.connectTemporal) return 'relay';
    try {
      gateway ??= deps.connectTemporal();
      await startFanouts({ db: deps.db, temporal: await gateway, clock: deps.clock }, events);
      return 'started';
    } catch {
      return 'relay';
    }
  };
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/**
 * Help text; `asked` is false when it stands in for a missing group or command (then it is a usage error). A command
 * resolved says how many words its name took (`console sessions end` has a name of two), so the rest are flags.
 */
type Resolved = { help: string[]; asked: boolean } | { group: CommandGroup; command: AdminCommand; words: number };

/** Finds the command the arguments name, or the help they ask for; a wrong name is a usage error. */
function resolve(group: string | undefined, tail: string[]): Resolved {
  if (group === undefined || isHelp(group)) return { help: generalHelp(GROUPS), asked: group !== undefined };
  const g = GROUPS.find((candidate) => candidate.name === group);
  if (!g) throw usageError('UNKNOWN_COMMAND', `Unknown command group "${group}"; use one of ${GROUPS.map((c) => c.name).join(', ')}.`);
  const command = tail[0];
  if (command === undefined || isHelp(command)) return { help: groupHelp(g), asked: command !== undefined };
  const c = g.commands.find((candidate) => candidate.name.split(' ').every((word, i) => tail[i] === word));
  if (!c) throw usageError('UNKNOWN_COMMAND', `Unknown command "${group} ${command}"; use one of ${g.commands.map((x) => x.name).join(', ')}.`);
  return { group: g, command: c, words: c.name.split(' ').length };
}

/**
 * Runs one operator command and returns the process exit code: 0 done, 1 refused, 2 wrong command line.
 * Results go to stdout; errors are one line on stderr (`{"error", "message"}` with --json).
 */
export async function runAdmin(argv: string[], deps: AdminDeps): Promise<number> {
  const [group, ...tail] = argv;
  const json = argv.includes('--json');
  let gateway: Promise<TemporalGateway> | undefined;
  try {
    const resolved = resolve(group, tail);
    if ('help' in resolved) {
      resolved.help.forEach(resolved.asked ? deps.stdout : deps.stderr);
      return resolved.asked ? 0 : 2;
    }
    const rest = tail.slice(resolved.words);
    if (rest.some(isHelp)) {
      commandHelp(resolved.group, resolved.command).forEach(deps.stdout);
      return 0;
    }
    const label = `${resolved.group.name} ${resolved.command.name}`;
    const flags = parseFlags(rest, resolved.command.flags, label);
    const output = await resolved.command.run(flags, {
      db: deps.db,
      clock: deps.clock,
      operator: deps.operator,
      allowInsecureWebhookUrls: deps.allowInsecureWebhookUrls ?? false,
      startFanouts: fanoutStarter(deps),
      temporal: deps.connectTemporal && (() => (gateway ??= deps.connectTemporal!())),
      platform: deps.platform,
      applicationCommands: deps.applicationCommands,
    });
    if (flags.json) deps.stdout(JSON.stringify(output.json, null, 2));
    else output.text.forEach(deps.stdout);
    return 0;
  } catch (err) {
    const error = toAdminError(err);
    deps.stderr(json ? JSON.stringify({ error: error.code, message: error.message }) : `error: ${error.message}`);
    return error.exitCode;
  }
}
