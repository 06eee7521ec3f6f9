import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { findFlowRun, insertFlowRun } from '../../db/flows/runs.js';
import { findLevelMember } from '../../db/levels/members.js';
import { flowRunWorkflow, flowRunWorkflowId, type FlowNodeValue } from '../../src/flows/ids.js';
import { flowRunInput } from '../../src/flows/flowRunOperation.js';
import { ATTEMPTS_BEFORE_GIVING_UP } from '../../process/outageRetries.js';
import { addTestMember, createTestGuild, snowflake } from '../harness/fixtures.js';
import { useOutageWorker } from '../harness/outageWorker.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

// The production worker (with its activity interceptors) reaches the database through a proxy that
// can take it away; the time-skipping server fires the backoff timers of an hour's retries at once.
const bed = useTimeSkippingTestBed({ taskQueue: 'flow-outage-bed' });
const taskQueue = 'flow-outage-test';
const outage = useOutageWorker(bed, taskQueue);

const HOUR_MS = 3_600_000;

/** A run of "pay, add XP, say so" with a 30 s timeout, recorded as the API records one, under its real workflow id. */
async function acceptedRun() {
  const db = bed.db();
  const guild = await createTestGuild(db);
  const userId = await addTestMember(db, guild);
  const channelId = snowflake();
  await upsertPlatformChannels(db, guild.id, [{ channelId, name: 'general', type: 'text', position: 0 }]);
  const nodes = [
    { id: 'start', type: 'trigger', trigger: { kind: 'manual' }, next: 'pay' },
    { id: 'pay', type: 'bankTransaction', userId: '=trigger.userId', action: 'add', amount: 250, reason: 'Flow reward', next: 'xp' },
    { id: 'xp', type: 'xpChange', userId: '=trigger.userId', action: 'add', unit: 'xp', amount: 120, next: 'say' },
    { id: 'say', type: 'sendMessage', channelId, content: '="Paid <@" & trigger.userId & ">"' },
  ] as FlowNodeValue[];
  const record = (await insertFlowRun(db, {
    guildId: guild.id,
    flowId: 1,
    flowVersion: 1,
    source: 'api',
    nodes,
    timeoutSeconds: 30,
    input: { userId },
    apiKeyId: null,
    eventId: null,
    startedAt: new Date(),
  }))!;
  const handle = await bed.client.workflow.start(flowRunWorkflow.name, {
    args: [flowRunInput(record)],
    taskQueue,
    workflowId: flowRunWorkflowId(guild.id, record.executionId),
  });
  return { guild, userId, record, handle };
}

describe('flow runs across a database outage (time-skipping)', () => {
  it('an effect failing for another reason than an outage gives up after its attempts: the run reads error with it', async () => {
    const db = bed.db();
    // Every record of a flow effect fails the same way: a failure that no wait cures.
    await sql.raw(`
      create function refuse_flow_effects() returns trigger language plpgsql as $$ begin raise exception 'flow effects refused'; end $$;
      create trigger refuse_flow_effects before insert or update on flow_effects for each row execute function refuse_flow_effects();`).execute(db);
    try {
      const { guild, userId, record, handle } = await acceptedRun();
      const error = `node "pay" (bankTransaction): gave up after ${ATTEMPTS_BEFORE_GIVING_UP} attempts: flow effects refused`;
      expect(await handle.result()).toMatchObject({ status: 'error', output: null, error });
      expect(await findFlowRun(db, guild.id, record.executionId)).toMatchObject({ status: 'error', error });
      expect(await db.selectFrom('bank_ledger').select('type').where('guild_id', '=', guild.id).where('user_id', '=', userId).execute()).toEqual([]);
    } finally {
      await sql.raw('drop trigger refuse_flow_effects on flow_effects; drop function refuse_flow_effects();').execute(db);
    }
  });

  it("a run whose effects cannot reach the database for an hour, far past its 30 s timeout, succeeds when it is back, each effect once", async () => {
    const db = bed.db();
    outage.proxy.setDown(true);
    const startedAt = await bed.env.currentTimeMs();
    const { guild, userId, record, handle } = await acceptedRun();
    // Awaiting the result lets the server skip time; each attempt knocks on the proxy once or more.
    const outcome = handle.result();
    outcome.catch(() => {});
    const state = await outage.hold(handle, startedAt, HOUR_MS);
    expect(state.closed).toBe(false);
    expect(state.refused).toBeGreaterThan(3 * ATTEMPTS_BEFORE_GIVING_UP);
    outage.proxy.setDown(false);

    expect(await outcome).toMatchObject({ status: 'success', output: { messageId: expect.any(String) }, error: null });
    expect(await findFlowRun(db, guild.id, record.executionId)).toMatchObject({ status: 'success', error: null });
    const effects = await db.selectFrom('flow_effects').select('node_id').where('execution_id', '=', record.executionId).orderBy('node_id').execute();
    expect(effects.map((e) => e.node_id)).toEqual(['pay', 'xp']);
    const ledger = await db.selectFrom('bank_ledger').select(['type', 'amount']).where('guild_id', '=', guild.id).where('user_id', '=', userId).where('type', '=', 'flow').execute();
    expect(ledger).toEqual([{ type: 'flow', amount: 250 }]);
    expect(await findLevelMember(db, guild.id, userId)).toMatchObject({ xp: 120 });
    const messages = await db.selectFrom('platform_messages').select('idempotency_key').where('guild_id', '=', guild.id).execute();
    expect(messages).toEqual([{ idempotency_key: `flow/${guild.id}/${record.executionId}/say` }]);
  });
});
