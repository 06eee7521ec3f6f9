import type { Kysely } from 'kysely';
import { listEventFlows, type FlowRecord } from '../../db/flows/flows.js';
import { insertFlowRun, type FlowRunRecord } from '../../db/flows/runs.js';
import { advanceTriggerCursor, listTriggerEvents, readTriggerCursor, type TriggerEvent } from '../../db/flows/triggerEvents.js';
import { findGuild, type GuildRecord } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../core/errors.js';
import { launchOperation, type OperationDeps } from '../core/temporal/operation.js';
import { newRunOf } from './acceptFlowRun.js';
import { FLOW_EVENTS } from './definition.js';
import { flowRunOperation } from './flowRunOperation.js';
import { takeFlowRunQuota } from './quota.js';

const CURSOR = 'members-events';
/** Events are read once they are this old, so that a transaction committing late (a lower seq) is not passed over. */
const GRACE_MS = 2_000;
const BATCH = 200;

/** The trigger data of an event run: the event as webhooks deliver it. */
export const eventInput = (e: TriggerEvent) => ({ id: e.id, type: e.type, createdAt: e.createdAt.toISOString(), data: e.data });

/**
 * Records the run of one event flow for one event, with one run taken from the server's quota, in one
 * transaction: an event already handled (unique per event and flow) takes nothing, and an exhausted quota
 * records nothing (the event is passed over for that flow).
 */
async function acceptEventRun(db: Kysely<Database>, flow: FlowRecord, event: TriggerEvent, plan: string, at: Date): Promise<FlowRunRecord | undefined> {
  try {
    return await db.transaction().execute(async (trx) => {
      const run = await insertFlowRun(trx, newRunOf(flow, { source: 'event', input: eventInput(event), apiKeyId: null, eventId: event.id, at }));
      if (run) await takeFlowRunQuota(trx, { id: flow.guildId, plan }, at);
      return run;
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'FLOW_RUN_QUOTA_EXHAUSTED') return undefined;
    throw err;
  }
}

/**
 * One pass of the event trigger, run by the worker's start relay: every members.joined / members.left event past
 * the cursor starts the enabled flows of its server with that trigger (workflow ids from the run's executionId,
 * so nothing starts twice), counted against the quota. Returns how many runs it started.
 */
export async function relayFlowEvents(deps: OperationDeps<Kysely<Database>>): Promise<number> {
  const { db, clock } = deps;
  const after = await readTriggerCursor(db, CURSOR);
  const events = await listTriggerEvents(db, FLOW_EVENTS, after, new Date(clock.now().getTime() - GRACE_MS), BATCH);
  // A pass reads each server, and its flows for each event type, once however many of its events it carries.
  const guilds = new Map<string, Promise<GuildRecord | undefined>>();
  const flows = new Map<string, Promise<FlowRecord[]>>();
  const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>) => cache.get(key) ?? cache.set(key, read()).get(key)!;
  let started = 0;
  for (const event of events) {
    const guild = await once(guilds, event.guildId, () => findGuild(db, event.guildId));
    if (guild && !guild.blocked && guild.features.includes('flows')) {
      for (const flow of await once(flows, `${event.guildId}/${event.type}`, () => listEventFlows(db, event.guildId, event.type))) {
        const run = await acceptEventRun(db, flow, event, guild.plan, clock.now());
        if (!run) continue;
        await launchOperation(deps, flowRunOperation, run);
        started++;
      }
    }
    await advanceTriggerCursor(db, CURSOR, event.seq);
  }
  return started;
}
