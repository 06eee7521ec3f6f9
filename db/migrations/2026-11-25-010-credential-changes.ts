import { sql, type Kysely } from 'kysely';

/**
 * Every change to what authentication reads (an API key, or its guild's name, icon, locale, plan, features or
 * blocked flag) takes a number from `credential_version` and announces it on the `credential_changes` channel
 * when it commits. The api instances' credential caches drop what they hold on each announcement, and compare the
 * sequence with the last number they heard to catch an announcement they missed (src/keys/credentialCache.ts).
 * The triggers fire for every writer (api, console, admin CLI, a hand-written UPDATE), not only the use cases.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE SEQUENCE credential_version`.execute(db);
  await sql`CREATE FUNCTION credential_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('credential_changes', nextval('credential_version')::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER api_keys_credential_changed AFTER UPDATE OR DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION credential_changed()`.execute(db);
  await sql`CREATE TRIGGER guilds_credential_changed AFTER UPDATE ON guilds
    FOR EACH ROW WHEN ((OLD.name, OLD.icon, OLD.locale, OLD.plan, OLD.features, OLD.blocked)
      IS DISTINCT FROM (NEW.name, NEW.icon, NEW.locale, NEW.plan, NEW.features, NEW.blocked))
    EXECUTE FUNCTION credential_changed()`.execute(db);
  await sql`CREATE TRIGGER guilds_credential_deleted AFTER DELETE ON guilds
    FOR EACH ROW EXECUTE FUNCTION credential_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER guilds_credential_deleted ON guilds`.execute(db);
  await sql`DROP TRIGGER guilds_credential_changed ON guilds`.execute(db);
  await sql`DROP TRIGGER api_keys_credential_changed ON api_keys`.execute(db);
  await sql`DROP FUNCTION credential_changed()`.execute(db);
  await sql`DROP SEQUENCE credential_version`.execute(db);
}
