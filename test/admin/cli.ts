import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../db/schema.js';
import { runAdmin } from '../../process/admin/runAdmin.js';
import type { Clock } from '../../src/core/clock.js';
import type { Platform } from '../../src/core/platform.js';
import type { ApplicationCommands } from '../../src/platform/discord/applicationCommands.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { snowflake } from '../harness/fixtures.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs). */
  json(): any;
  /** stderr parsed as JSON (for --json runs that fail). */
  error(): { error: string; message: string };
}

export interface CliOptions {
  /** Where commands that emit events start their fan-out; without it they are left to the (absent) relay. */
  temporal?: TemporalGateway;
  /** Webhook endpoints may be http:// loopback receivers, as on the dev database. */
  allowInsecureWebhookUrls?: boolean;
  /** The chat platform as with PLATFORM=discord (the Discord adapter on the fake); local tables without it. */
  platform?: Platform;
  /** The bot application's commands, as with PLATFORM=discord (the client on the fake). */
  applicationCommands?: ApplicationCommands;
}

/** The operator CLI in-process, on the test file's database, as operator "alice" unless --operator says otherwise. */
export function cli(getDb: () => Kysely<Database>, clock: Clock, options: CliOptions = {}) {
  return async (...argv: string[]): Promise<CliResult> => {
    const out: string[] = [];
    const err: string[] = [];
    const { temporal } = options;
    const code = await runAdmin(argv, {
      db: getDb(),
      clock,
      operator: 'alice',
      allowInsecureWebhookUrls: options.allowInsecureWebhookUrls,
      platform: options.platform,
      applicationCommands: options.applicationCommands,
      connectTemporal: temporal && (() => Promise.resolve(temporal)),
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
    });
    const stdout = out.join('\n');
    const stderr = err.join('\n');
    return { code, stdout, stderr, json: () => JSON.parse(stdout), error: () => JSON.parse(stderr) };
  };
}

export type Cli = ReturnType<typeof cli>;

/** Creates a guild through the CLI and returns its ids. */
export async function cliGuild(run: Cli, options: { plan?: 'free' | 'pro'; features?: string } = {}) {
  const id = snowflake();
  const ownerId = snowflake();
  const res = await run('guild', 'create', '--id', id, '--name', 'Ops Guild', '--plan', options.plan ?? 'pro', '--features', options.features ?? 'bank,levels', '--owner', ownerId, '--json');
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  return { id, ownerId };
}
