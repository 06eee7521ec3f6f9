import type { ColumnType } from 'kysely';

/** Set by the database's default when omitted; never updated. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
