import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A count per UTC day (`YYYY-MM-DD`) and per kind within [from, to); days without any are absent. */
export interface DayCount {
  day: string;
  kind: string;
  count: number;
}

const day = (column: string) => sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/** Members who joined and left (the `members.joined` / `members.left` events) per day. */
export async function countMemberMovesByDay(db: Kysely<Database>, guildId: string, from: Date, to: Date): Promise<DayCount[]> {
  const rows = await db
    .selectFrom('events')
    .select([day('created_at').as('day'), 'type as kind', (eb) => eb.fn.countAll<string>().as('count')])
    .where('guild_id', '=', guildId)
    .where('type', 'in', ['members.joined', 'members.left'])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(['day', 'type'])
    .execute();
  return rows.map((r) => ({ day: r.day, kind: r.kind, count: Number(r.count) }));
}

/** XP earned by counted activity per day (the `levels.activity` audit rows the bot writes with each batch). */
export async function sumActivityXpByDay(db: Kysely<Database>, guildId: string, from: Date, to: Date): Promise<DayCount[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select([day('created_at').as('day'), sql<string>`coalesce(sum((data->>'xpEarned')::bigint), 0)`.as('count')])
    .where('guild_id', '=', guildId)
    .where('action', '=', 'levels.activity')
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy('day')
    .execute();
  return rows.map((r) => ({ day: r.day, kind: 'xp', count: Number(r.count) }));
}

/** Webhook deliveries made per day, by their status now. */
export async function countDeliveriesByDay(db: Kysely<Database>, guildId: string, from: Date, to: Date): Promise<DayCount[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([day('d.created_at').as('day'), 'd.status as kind', (eb) => eb.fn.countAll<string>().as('count')])
    .where('e.guild_id', '=', guildId)
    .where('d.created_at', '>=', from)
    .where('d.created_at', '<', to)
    .groupBy(['day', 'd.status'])
    .execute();
  return rows.map((r) => ({ day: r.day, kind: r.kind, count: Number(r.count) }));
}
