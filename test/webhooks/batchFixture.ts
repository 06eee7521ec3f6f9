import type { Kysely } from 'kysely';
import { claimEventBatch } from '../../db/shared/events.js';
import type { Database } from '../../db/schema.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { createTestGuild } from '../harness/fixtures.js';
import { commitEvents } from './eventReceiver.js';

/** A guild with one endpoint at `url` and `count` committed events claimed as one batch, ready for a webhookBatch run. */
export async function claimedBatch(db: Kysely<Database>, count: number, url: string) {
  const guild = await createTestGuild(db);
  const endpoint = await insertEndpoint(db, { guildId: guild.id, url, events: ['members.joined'], secret: 'whsec_batch' });
  const eventIds = await commitEvents(db, guild.id, count);
  const claimed = await claimEventBatch(db, eventIds);
  return { guildId: guild.id, endpointId: endpoint.id, eventIds, batchId: claimed!.batchId };
}

/** The attempts recorded for one event at one endpoint, in order, with the delivery's status. */
export const attemptsOf = (db: Kysely<Database>, endpointId: number, eventId: string) =>
  db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.attempt', 'a.status_code', 'a.error', 'a.attempted_at', 'd.status'])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.event_id', '=', eventId)
    .orderBy('a.attempt')
    .execute();

export const secondsBetween = (a: Date, b: Date) => Math.round((b.getTime() - a.getTime()) / 1000);
