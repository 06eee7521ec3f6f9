import { EVENT_DATA_SCHEMAS } from '../../src/events/contract.js';
import type { EventDataByType, EventType } from '../../src/events/eventTypes.js';
import { fixedClock } from '../../src/core/clock.js';
import { useTestDatabase } from '../harness/database.js';
import { cli } from './cli.js';

/** The test bed of the simulate commands: the admin CLI on the file's database at a fixed time, and what it wrote. */
export function useSimulateBed(now: Date) {
  const database = useTestDatabase();
  const admin = cli(() => database.db, fixedClock(now));

  /** The guild's stored events of one type, oldest first, with data checked (strictly) against the documented schema. */
  async function eventsOf<T extends EventType>(guildId: string, type: T) {
    const rows = await database.db.selectFrom('events').selectAll().where('guild_id', '=', guildId).where('type', '=', type).orderBy('seq').execute();
    return rows.map((row) => ({ id: row.id, createdAt: row.created_at, data: EVENT_DATA_SCHEMAS[type].strict().parse(row.data) as EventDataByType[T] }));
  }

  const auditOf = (guildId: string, action: string) =>
    database.db.selectFrom('audit_log').selectAll().where('guild_id', '=', guildId).where('action', '=', action).orderBy('id').execute();

  const allEvents = async (guildId: string) =>
    (await database.db.selectFrom('events').select('type').where('guild_id', '=', guildId).execute()).map((e) => e.type);

  return { database, admin, eventsOf, auditOf, allEvents };
}
