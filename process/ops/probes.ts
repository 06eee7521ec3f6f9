import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';

/** One dependency's answer to a readiness probe. */
export type Check = () => Promise<boolean>;

// A probe answers fast: a dependency slower than this counts as down (a load balancer probes every few seconds).
const CHECK_TIMEOUT_MS = 2_000;

function withinTimeout(check: Check): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
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

export interface Readiness {
  ready: boolean;
  checks: Record<string, 'ok' | 'down'>;
}

/** Runs every check at once; ready when all pass. */
export async function readiness(checks: Record<string, Check>): Promise<Readiness> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => withinTimeout(checks[name]!)));
  return {
    ready: results.every(Boolean),
    checks: Object.fromEntries(names.map((name, i) => [name, results[i] ? 'ok' : 'down'])),
  };
}
