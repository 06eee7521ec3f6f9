import { sql, type Kysely } from 'kysely';

/**
 * Servers whose all-time invite counts changed since their rank snapshot was last computed: a trigger marks the
 * server on every change of a member's invites, and the refresh schedule recomputes only marked servers (and
 * those without a snapshot), instead of sorting every large server's inviters every minute whether or not
 * anything moved. Marking an already marked server takes no lock (ON CONFLICT DO NOTHING on a committed row).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE invite_rank_dirty (guild_id text PRIMARY KEY)`.execute(db);
  await sql`CREATE FUNCTION invite_rank_dirty_mark() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        IF NEW.invites > 0 THEN INSERT INTO invite_rank_dirty VALUES (NEW.guild_id) ON CONFLICT DO NOTHING; END IF;
      ELSIF TG_OP = 'DELETE' THEN
        IF OLD.invites > 0 THEN INSERT INTO invite_rank_dirty VALUES (OLD.guild_id) ON CONFLICT DO NOTHING; END IF;
      ELSIF NEW.invites IS DISTINCT FROM OLD.invites THEN
        INSERT INTO invite_rank_dirty VALUES (NEW.guild_id) ON CONFLICT DO NOTHING;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER invite_members_rank_dirty AFTER INSERT OR UPDATE OR DELETE ON invite_members
    FOR EACH ROW EXECUTE FUNCTION invite_rank_dirty_mark()`.execute(db);
  // Every server counts as changed once: the next refresh recomputes what exists.
  await sql`INSERT INTO invite_rank_dirty SELECT DISTINCT guild_id FROM invite_members WHERE invites > 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER invite_members_rank_dirty ON invite_members`.execute(db);
  await sql`DROP FUNCTION invite_rank_dirty_mark()`.execute(db);
  await sql`DROP TABLE invite_rank_dirty`.execute(db);
}
