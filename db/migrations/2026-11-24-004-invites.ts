import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // One row per inviter: the buckets of their attributed joins and the bonus given by staff or the API.
  // `invites` (verified + bonus, never below 0) is what ranks, so it is stored (generated) and indexed.
  await db.schema
    .createTable('invite_members')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('verified', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pending', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('left', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fake', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bonus', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('invites', 'bigint', (c) => c.generatedAlwaysAs(sql`GREATEST(0, verified + bonus)`).stored())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('invite_members_pk', ['guild_id', 'user_id'])
    .execute();
  // Leaderboard pages and ranks walk this index alone; members without invites are not ranked.
  await sql`CREATE INDEX invite_members_board_idx ON invite_members (guild_id, invites DESC, user_id)
    INCLUDE (verified, bonus) WHERE invites > 0`.execute(db);

  // Seasons: windows that never overlap, at most one active (ended_at null) per server.
  await db.schema
    .createTable('invite_seasons')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .addUniqueConstraint('invite_seasons_number_unique', ['guild_id', 'number'])
    .execute();
  await sql`CREATE UNIQUE INDEX invite_seasons_one_active ON invite_seasons (guild_id) WHERE ended_at IS NULL`.execute(db);

  // A member's attributed join (one bucket per member and server): pending -> verified | fake; pending or verified
  // -> left (the status it left from kept, so a rejoin reactivates it). season_id: the season it was verified in.
  await db.schema
    .createTable('invite_joins')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('inviter_id', 'text', (c) => c.notNull())
    .addColumn('invite_code', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('left_from', 'text')
    .addColumn('season_id', 'integer', (c) => c.references('invite_seasons.id'))
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('invite_joins_pk', ['guild_id', 'user_id'])
    .execute();

  // A season's invites per member: verified joins in the window and bonus added in it; untouched once it ended.
  await db.schema
    .createTable('invite_season_members')
    .addColumn('season_id', 'integer', (c) => c.notNull().references('invite_seasons.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('verified', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bonus', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('invites', 'bigint', (c) => c.generatedAlwaysAs(sql`GREATEST(0, verified + bonus)`).stored())
    .addPrimaryKeyConstraint('invite_season_members_pk', ['season_id', 'user_id'])
    .execute();
  await sql`CREATE INDEX invite_season_members_board_idx ON invite_season_members (season_id, invites DESC, user_id)
    INCLUDE (verified, bonus) WHERE invites > 0`.execute(db);

  // Milestone rewards: a role at an invite count, per server; each grant recorded once per member and role.
  await db.schema
    .createTable('invite_milestones')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('invites', 'integer', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('invite_milestones_pk', ['guild_id', 'invites', 'role_id'])
    .execute();
  await db.schema
    .createTable('invite_milestone_grants')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('invites', 'integer', (c) => c.notNull())
    .addColumn('granted_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('invite_milestone_grants_pk', ['guild_id', 'user_id', 'role_id'])
    .execute();
  // One row per change that reached an ungranted milestone: workflow invite-milestones/<guild>/<id> grants it.
  await db.schema
    .createTable('invite_milestone_checks')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('workflow_started_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX invite_milestone_checks_unstarted_idx ON invite_milestone_checks (created_at) WHERE workflow_started_at IS NULL`.execute(db);

  // All-time ranks of large servers, recomputed every minute (as level ranks): a deep page or a member's rank is
  // an index lookup. `rank` is the competition rank (ties share it). Unlogged: after a crash it is recomputed.
  await sql`CREATE UNLOGGED TABLE invite_rank_snapshots (
    guild_id text NOT NULL,
    position integer NOT NULL,
    rank integer NOT NULL,
    user_id text NOT NULL,
    invites bigint NOT NULL,
    verified bigint NOT NULL,
    bonus bigint NOT NULL,
    PRIMARY KEY (guild_id, position)
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX invite_rank_snapshots_member_idx ON invite_rank_snapshots (guild_id, user_id) INCLUDE (rank)`.execute(db);
  await sql`CREATE UNLOGGED TABLE invite_rank_snapshot_state (
    guild_id text PRIMARY KEY,
    total integer NOT NULL,
    refreshed_at timestamptz NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE invite_rank_snapshot_state`.execute(db);
  await sql`DROP TABLE invite_rank_snapshots`.execute(db);
  await db.schema.dropTable('invite_milestone_checks').execute();
  await db.schema.dropTable('invite_milestone_grants').execute();
  await db.schema.dropTable('invite_milestones').execute();
  await db.schema.dropTable('invite_season_members').execute();
  await db.schema.dropTable('invite_joins').execute();
  await db.schema.dropTable('invite_seasons').execute();
  await db.schema.dropTable('invite_members').execute();
}
