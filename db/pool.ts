import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

const INT8_OID = 20;

/** BIGINT columns come back as numbers; a value past Number.MAX_SAFE_INTEGER is a bug, never silently rounded. */
function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`BIGINT ${value} exceeds Number.MAX_SAFE_INTEGER`);
  return parsed;
}

const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Statements run on nearly every request, by SQL text. On each connection they are prepared once (a named
 * statement), so PostgreSQL parses and plans them once instead of on every call; others run unnamed.
 */
const hotStatements = new Map<string, string>();

/** Marks a statement as hot; its text must not vary from call to call (values are parameters). */
export function markHot(sqlText: string): void {
  if (!hotStatements.has(sqlText)) hotStatements.set(sqlText, `hot_${hotStatements.size + 1}`);
}

function prepareHotStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  // Every other call goes through unchanged, its arguments included (pool.query passes a callback).
  client.query = ((text: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' ? hotStatements.get(text) : undefined;
    return name && rest.length <= 1 ? query({ name, text: text as string, values: rest[0] }) : query(text, ...rest);
  }) as typeof client.query;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** How each connection of a pool is set up on the server; a timeout of 0 (or unset) is not sent: the server's own applies. */
export interface SessionOptions {
  /** Shown in pg_stat_activity and the server's logs (`community-bot-api`, ...); the URL's `application_name` wins. */
  applicationName?: string;
  statementTimeoutMs?: number;
  lockTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  /** A connection lost while idle in the pool or between two queries; the pool drops it and carries on. */
  onConnectionError?: (err: Error) => void;
}

/** The client settings of SessionOptions, sent when each connection starts (no round trip of their own). */
export function sessionParameters(options: SessionOptions): pg.ClientConfig {
  const positive = (ms: number | undefined) => (ms ? ms : undefined);
  return {
    application_name: options.applicationName,
    statement_timeout: positive(options.statementTimeoutMs),
    lock_timeout: positive(options.lockTimeoutMs),
    idle_in_transaction_session_timeout: positive(options.idleInTransactionTimeoutMs),
  };
}

export function createDatabase(connectionString: string, max = 20, options: SessionOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max, types, connectionTimeoutMillis: 5_000, ...sessionParameters(options) });
  // A client losing its server must not crash the process, idle in the pool (the pool's 'error') or checked
  // out between two queries (the client's own 'error', which nothing else listens to while it is out): the
  // next query on it rejects, and the pool drops it when it is released.
  // A client idle in the pool emits both; its own 'error' alone covers both cases, once.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', (err) => options.onConnectionError?.(err));
    prepareHotStatements(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool, close: () => db.destroy() };
}
