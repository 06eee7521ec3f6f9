import { sql, type Kysely } from 'kysely';

/**
 * Which rank snapshots need a recount (docs/performance.md, "Rank recounts at no idle cost"): one row per board and
 * snapshotted server. A change of a member's board columns marks the row dirty in the writing transaction (a trigger,
 * so every write path marks it); only the clean-to-dirty flip writes, a server already dirty costs the write one
 * index probe. `woken`: the start relay told the recount dispatcher about this flip. `recount_due`: a pass took the
 * mark and has not committed the recount yet (a crash leaves it set for the next pass). Unlogged like the snapshots it
 * guards: after a database crash both are gone, and the relay's discovery marks the large servers again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNLOGGED TABLE rank_marks (
    board text NOT NULL CHECK (board IN ('levels', 'invites')),
    guild_id text NOT NULL,
    dirty_since timestamptz,
    woken boolean NOT NULL DEFAULT false,
    recount_due boolean NOT NULL DEFAULT false,
    PRIMARY KEY (board, guild_id)
  )`.execute(db);
  await sql`CREATE FUNCTION rank_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE g text;
    BEGIN
      IF TG_OP = 'DELETE' THEN g := OLD.guild_id; ELSE g := NEW.guild_id; END IF;
      UPDATE rank_marks SET dirty_since = now() WHERE board = TG_ARGV[0] AND guild_id = g AND dirty_since IS NULL;
      RETURN NULL;
    END $$`.execute(db);
  // The columns each snapshot shows (invites: the count, as invite_rank_dirty of 2026-11-24-052, which the invite
  // recount still consults); rows at a score of 0 are on no board.
  await sql`CREATE TRIGGER level_members_rank_mark_insert AFTER INSERT ON level_members
    FOR EACH ROW WHEN (NEW.xp > 0) EXECUTE FUNCTION rank_mark_dirty('levels')`.execute(db);
  await sql`CREATE TRIGGER level_members_rank_mark_update AFTER UPDATE ON level_members
    FOR EACH ROW WHEN ((OLD.xp, OLD.hidden, OLD.messages, OLD.voice_minutes) IS DISTINCT FROM (NEW.xp, NEW.hidden, NEW.messages, NEW.voice_minutes))
    EXECUTE FUNCTION rank_mark_dirty('levels')`.execute(db);
  await sql`CREATE TRIGGER level_members_rank_mark_delete AFTER DELETE ON level_members
    FOR EACH ROW WHEN (OLD.xp > 0) EXECUTE FUNCTION rank_mark_dirty('levels')`.execute(db);
  await sql`CREATE TRIGGER invite_members_rank_mark_insert AFTER INSERT ON invite_members
    FOR EACH ROW WHEN (NEW.invites > 0) EXECUTE FUNCTION rank_mark_dirty('invites')`.execute(db);
  await sql`CREATE TRIGGER invite_members_rank_mark_update AFTER UPDATE ON invite_members
    FOR EACH ROW WHEN (OLD.invites IS DISTINCT FROM NEW.invites)
    EXECUTE FUNCTION rank_mark_dirty('invites')`.execute(db);
  await sql`CREATE TRIGGER invite_members_rank_mark_delete AFTER DELETE ON invite_members
    FOR EACH ROW WHEN (OLD.invites > 0) EXECUTE FUNCTION rank_mark_dirty('invites')`.execute(db);
  // The snapshots that exist are recounted once by the first pass.
  await sql`INSERT INTO rank_marks (board, guild_id, dirty_since)
    SELECT 'levels', guild_id, now() FROM level_rank_snapshot_state
    UNION ALL SELECT 'invites', guild_id, now() FROM invite_rank_snapshot_state`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['level_members', 'invite_members']) {
    for (const op of ['insert', 'update', 'delete']) await sql`DROP TRIGGER ${sql.raw(`${t}_rank_mark_${op}`)} ON ${sql.table(t)}`.execute(db);
  }
  await sql`DROP FUNCTION rank_mark_dirty()`.execute(db);
  await sql`DROP TABLE rank_marks`.execute(db);
}
