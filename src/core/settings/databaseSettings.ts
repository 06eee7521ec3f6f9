import { z } from 'zod';

/** The process kinds that hold a pool, as the connection budget counts them. */
export const BUDGET_PROCESSES = ['api', 'worker', 'bot'] as const;
export type BudgetProcess = (typeof BUDGET_PROCESSES)[number];

const INSTANCES = /^(api|worker|bot)=\d+(,(api|worker|bot)=\d+)*$/;

/** The environment variables of the PostgreSQL sessions, besides DATABASE_URL and DATABASE_POOL_MAX. */
export const databaseEnv = {
  /**
   * A connection to PostgreSQL itself, past any transaction pooler: for the credential cache's LISTEN and for migrate
   * (its session advisory lock). Unset: DATABASE_URL.
   */
  DATABASE_DIRECT_URL: z.string().optional(),
  /** Per statement, per connection; 0 leaves the server's (or the role's) setting. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /** How long a statement waits for a lock (row, table or advisory) before it fails. */
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(10_000),
  /** A session idle inside a transaction this long is ended by the server (its locks released). */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /**
   * migrate: lock_timeout of each migration's statements. A migration that waits longer for a lock (a long query or
   * transaction on its table) gives up and is tried again, so the queries queued behind it wait at most this long.
   */
  MIGRATION_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(3_000),
  /** migrate: tries of a migration that times out on a lock (pauses of 1 s, 2 s, 4 s ... 30 s between) before it fails. */
  MIGRATION_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * How many of each process the deployment runs, for the start-up check of the connection budget against
   * PostgreSQL's max_connections (process/ops/connectionBudget.ts): `api=2,worker=2,bot=1`.
   */
  DATABASE_BUDGET_INSTANCES: z.string().regex(INSTANCES, 'must list process counts such as api=2,worker=2,bot=1').default('api=2,worker=2,bot=1'),
};

type DatabaseEnv = z.infer<z.ZodObject<typeof databaseEnv>> & { DATABASE_URL?: string; DATABASE_POOL_MAX: number };

export type DatabaseSettings = Readonly<{
  url?: string;
  /** DATABASE_DIRECT_URL, else DATABASE_URL. */
  directUrl?: string;
  poolMax: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /** migrate's lock_timeout and tries per migration. */
  migration: Readonly<{ lockTimeoutMs: number; attempts: number }>;
  /** Instances of each process the deployment runs (missing kinds: 0). */
  budgetInstances: Readonly<Record<BudgetProcess, number>>;
}>;

export function databaseSettingsOf(e: DatabaseEnv): DatabaseSettings {
  const counts = Object.fromEntries(e.DATABASE_BUDGET_INSTANCES.split(',').map((pair) => pair.split('=') as [string, string]).map(([kind, n]) => [kind, Number(n)]));
  return Object.freeze({
    url: e.DATABASE_URL,
    directUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    poolMax: e.DATABASE_POOL_MAX,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: e.DATABASE_LOCK_TIMEOUT_MS,
    idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    migration: Object.freeze({ lockTimeoutMs: e.MIGRATION_LOCK_TIMEOUT_MS, attempts: e.MIGRATION_ATTEMPTS }),
    budgetInstances: Object.freeze(Object.fromEntries(BUDGET_PROCESSES.map((kind) => [kind, counts[kind] ?? 0])) as Record<BudgetProcess, number>),
  });
}
