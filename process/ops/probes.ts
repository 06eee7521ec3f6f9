import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';

/** One check of a probe: true when it passes; a rejection or no answer within the probe's bound is false. */
export type Check = () => Promise<boolean>;

export type CheckResults = Record<string, 'ok' | 'down'>;

function withinTimeout(check: Check, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  return Promise.race([check().catch(() => false), timeout]).finally(() => clearTimeout(timer));
}

export const databaseCheck = (db: Kysely<Database>): Check => async () => {
  await sql`select 1`.execute(db);
  return true;
};

export const temporalCheck = ({ client }: TemporalGateway): Check => async () => {
  await client.workflowService.getSystemInfo({});
  return true;
};

/** Runs every check at once, each bounded by `timeoutMs` (slower counts as down). */
export async function runChecks(checks: Record<string, Check>, timeoutMs: number): Promise<CheckResults> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => withinTimeout(checks[name]!, timeoutMs)));
  return Object.fromEntries(names.map((name, i) => [name, results[i] ? 'ok' : 'down']));
}
