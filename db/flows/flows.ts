import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { FlowsTable } from './tables.js';

export type FlowTriggerType = FlowsTable['trigger_type'];

export interface FlowRecord {
  id: number;
  guildId: string;
  name: string;
  description: string | null;
  enabled: boolean;
  triggerType: FlowTriggerType;
  triggerEvent: string | null;
  /** The saved definition (FlowDefinitionValue; checked when saved). */
  definition: unknown;
  version: number;
  timeoutSeconds: number;
  hasWebhookToken: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = [
  'id',
  'guild_id',
  'name',
  'description',
  'enabled',
  'trigger_type',
  'trigger_event',
  'definition',
  'version',
  'timeout_seconds',
  'webhook_token_hash',
  'created_at',
  'updated_at',
] as const;


const toRecord = (r: Selectable<FlowsTable>): FlowRecord => ({
  id: r.id,
  guildId: r.guild_id,
  name: r.name,
  description: r.description,
  enabled: r.enabled,
  triggerType: r.trigger_type,
  triggerEvent: r.trigger_event,
  definition: r.definition,
  version: r.version,
  timeoutSeconds: r.timeout_seconds,
  hasWebhookToken: r.webhook_token_hash !== null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface FlowFields {
  name: string;
  description: string | null;
  triggerType: FlowTriggerType;
  triggerEvent: string | null;
  definition: unknown;
  timeoutSeconds: number;
}

export async function insertFlow(
  trx: Kysely<Database>,
  guildId: string,
  f: FlowFields & { enabled: boolean; webhookTokenHash: Buffer | null; at: Date },
): Promise<FlowRecord> {
  const row = await trx
    .insertInto('flows')
    .values({
      guild_id: guildId,
      name: f.name,
      description: f.description,
      enabled: f.enabled,
      trigger_type: f.triggerType,
      trigger_event: f.triggerEvent,
      definition: JSON.stringify(f.definition),
      version: 1,
      timeout_seconds: f.timeoutSeconds,
      webhook_token_hash: f.webhookTokenHash,
      created_at: f.at,
      updated_at: f.at,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Saves a new version of the definition; runs already accepted keep the nodes they snapshotted. */
export async function updateFlowDefinition(
  trx: Kysely<Database>,
  guildId: string,
  id: number,
  f: FlowFields & { webhookTokenHash: Buffer | null | undefined; at: Date },
): Promise<FlowRecord | undefined> {
  const row = await trx
    .updateTable('flows')
    .set((eb) => ({
      name: f.name,
      description: f.description,
      trigger_type: f.triggerType,
      trigger_event: f.triggerEvent,
      definition: JSON.stringify(f.definition),
      timeout_seconds: f.timeoutSeconds,
      version: eb('version', '+', 1),
      updated_at: f.at,
      ...(f.webhookTokenHash === undefined ? {} : { webhook_token_hash: f.webhookTokenHash }),
    }))
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function setFlowEnabled(trx: Kysely<Database>, guildId: string, id: number, enabled: boolean, at: Date): Promise<FlowRecord | undefined> {
  const row = await trx
    .updateTable('flows')
    .set({ enabled, updated_at: at })
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function setFlowWebhookToken(trx: Kysely<Database>, guildId: string, id: number, hash: Buffer, at: Date): Promise<void> {
  await trx.updateTable('flows').set({ webhook_token_hash: hash, updated_at: at }).where('guild_id', '=', guildId).where('id', '=', id).execute();
}

export async function deleteFlow(trx: Kysely<Database>, guildId: string, id: number): Promise<boolean> {
  const result = await trx.deleteFrom('flows').where('guild_id', '=', guildId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function findFlow(db: Kysely<Database>, guildId: string, id: number): Promise<FlowRecord | undefined> {
  const row = await db.selectFrom('flows').select(COLUMNS).where('guild_id', '=', guildId).where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

export async function findFlowByWebhookToken(db: Kysely<Database>, hash: Buffer): Promise<FlowRecord | undefined> {
  const row = await db.selectFrom('flows').select(COLUMNS).where('webhook_token_hash', '=', hash).executeTakeFirst();
  return row && toRecord(row);
}

export async function listFlows(db: Kysely<Database>, guildId: string): Promise<FlowRecord[]> {
  const rows = await db.selectFrom('flows').select(COLUMNS).where('guild_id', '=', guildId).orderBy('id').execute();
  return rows.map(toRecord);
}

/** The enabled flows of a server started by a platform event. */
export async function listEventFlows(db: Kysely<Database>, guildId: string, event: string): Promise<FlowRecord[]> {
  const rows = await db
    .selectFrom('flows')
    .select(COLUMNS)
    .where('guild_id', '=', guildId)
    .where('trigger_event', '=', event)
    .where('enabled', '=', true)
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}

/** A page of the server's flows in id order, `after` a flow id (keyset paging). */
export async function listFlowPage(db: Kysely<Database>, guildId: string, page: { after?: number; limit: number }): Promise<FlowRecord[]> {
  let query = db.selectFrom('flows').select(COLUMNS).where('guild_id', '=', guildId);
  if (page.after !== undefined) query = query.where('id', '>', page.after);
  return (await query.orderBy('id').limit(page.limit).execute()).map(toRecord);
}
