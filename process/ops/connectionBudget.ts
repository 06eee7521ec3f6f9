import type { Kysely } from 'kysely';
import { readConnectionLimits } from '../../db/shared/connectionLimits.js';
import type { Database } from '../../db/schema.js';
import type { Config } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import { BUDGET_PROCESSES } from '../../src/core/settings/databaseSettings.js';

/** What migrate opens while it runs (process/entrypoints/migrate.ts). */
const MIGRATE_CONNECTIONS = 2;

export interface ConnectionPlan {
  total: number;
  /** The terms of the sum, as docs/deployment.md (Connections) writes them. */
  terms: string[];
}

/**
 * The documented sum: every instance of every process opening its whole pool (each api one more, for the credential
 * cache's LISTEN, unless the cache is off; with PLATFORM=discord each one more for the fleet's Discord stops), plus
 * migrate. Every process is counted with this process's DATABASE_POOL_MAX: the check cannot see the others' settings.
 */
export function plannedConnections(config: Config): ConnectionPlan {
  const { poolMax, budgetInstances } = config.database;
  const listen = config.limits.credentialCacheEntries > 0 ? 1 : 0;
  const blocks = config.platform.kind === 'discord' ? 1 : 0;
  const perInstance = { api: poolMax + listen + blocks, worker: poolMax + blocks, bot: poolMax + blocks };
  const used = BUDGET_PROCESSES.filter((kind) => budgetInstances[kind] > 0);
  const terms = [...used.map((kind) => `${budgetInstances[kind]} ${kind} × ${perInstance[kind]}`), `migrate ${MIGRATE_CONNECTIONS}`];
  const total = used.reduce((sum, kind) => sum + budgetInstances[kind] * perInstance[kind], MIGRATE_CONNECTIONS);
  return { total, terms };
}

/**
 * At start: warns when the planned connections (DATABASE_BUDGET_INSTANCES) would not fit in what the server lets
 * ordinary roles open. Past that, new connections fail with "too many clients" just when load peaks. Answers whether
 * the plan fits (undefined when the server could not be asked).
 */
export async function checkConnectionBudget(db: Kysely<Database>, config: Config, logger: Logger): Promise<boolean | undefined> {
  const plan = plannedConnections(config);
  try {
    const { maxConnections, reserved } = await readConnectionLimits(db);
    const available = maxConnections - reserved;
    if (plan.total <= available) return true;
    logger.warn(
      { planned: plan.total, terms: plan.terms, maxConnections, reserved },
      `PostgreSQL connection budget exceeded: the deployment may open ${plan.total} connections (${plan.terms.join(' + ')}), ` +
        `the server allows ${available} (max_connections ${maxConnections} less ${reserved} reserved); lower DATABASE_POOL_MAX or raise max_connections`,
    );
    return false;
  } catch (err) {
    logger.warn({ err }, 'could not read max_connections to check the connection budget');
    return undefined;
  }
}
