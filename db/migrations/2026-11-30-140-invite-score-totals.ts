import { sql, type Kysely } from 'kysely';

/**
 * How many ranked members (invites > 0) a server and a season have, kept by triggers beside the per-count tallies of
 * 2026-11-24-051. A board's total read their sum (thousands of rows on a large server, most of a live page's database
 * time, docs/performance.md); now it reads one row. Only a member crossing 0 changes it, so the triggers fire on that
 * alone.
 *
 * Lock order: triggers of one event fire in name order, so `*_score_totals_*` runs after `*_score_counts` and every
 * writer takes its count rows first, then the total row, as the counts' own lowest-first order already requires.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE invite_score_totals (guild_id text PRIMARY KEY, members bigint NOT NULL)`.execute(db);
  await sql`CREATE TABLE invite_season_score_totals (season_id integer PRIMARY KEY, members bigint NOT NULL)`.execute(db);
  for (const { table, totals, counts, scope } of SCOPES) {
    const key = sql.raw(scope);
    await sql`CREATE FUNCTION ${sql.raw(`${totals}_track`)}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Fired only when a member starts or stops being ranked (the WHEN clauses below).
        IF TG_OP = 'DELETE' OR NEW.invites <= 0 THEN
          INSERT INTO ${sql.raw(totals)} (${key}, members) VALUES (OLD.${key}, -1)
          ON CONFLICT (${key}) DO UPDATE SET members = ${sql.raw(totals)}.members - 1;
        ELSE
          INSERT INTO ${sql.raw(totals)} (${key}, members) VALUES (NEW.${key}, 1)
          ON CONFLICT (${key}) DO UPDATE SET members = ${sql.raw(totals)}.members + 1;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    const track = sql.raw(`EXECUTE FUNCTION ${totals}_track()`);
    await sql`CREATE TRIGGER ${sql.raw(`${table}_score_totals_insert`)} AFTER INSERT ON ${sql.raw(table)}
      FOR EACH ROW WHEN (NEW.invites > 0) ${track}`.execute(db);
    await sql`CREATE TRIGGER ${sql.raw(`${table}_score_totals_update`)} AFTER UPDATE ON ${sql.raw(table)}
      FOR EACH ROW WHEN ((OLD.invites > 0) <> (NEW.invites > 0)) ${track}`.execute(db);
    await sql`CREATE TRIGGER ${sql.raw(`${table}_score_totals_delete`)} AFTER DELETE ON ${sql.raw(table)}
      FOR EACH ROW WHEN (OLD.invites > 0) ${track}`.execute(db);
    // Creating the triggers locked out writers until this transaction commits, so the counts summed here stay exact.
    await sql`INSERT INTO ${sql.raw(totals)} (${key}, members)
      SELECT ${key}, sum(members) FROM ${sql.raw(counts)} GROUP BY 1`.execute(db);
  }
}

const SCOPES = [
  { table: 'invite_members', totals: 'invite_score_totals', counts: 'invite_score_counts', scope: 'guild_id' },
  { table: 'invite_season_members', totals: 'invite_season_score_totals', counts: 'invite_season_score_counts', scope: 'season_id' },
] as const;

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, totals } of SCOPES) {
    for (const op of ['insert', 'update', 'delete']) await sql`DROP TRIGGER ${sql.raw(`${table}_score_totals_${op}`)} ON ${sql.raw(table)}`.execute(db);
    await sql`DROP FUNCTION ${sql.raw(`${totals}_track`)}()`.execute(db);
    await sql`DROP TABLE ${sql.raw(totals)}`.execute(db);
  }
}
