import { describe, expect, it } from 'vitest';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { findFlowRun } from '../../db/flows/runs.js';
import { findLevelMember } from '../../db/levels/members.js';
import type { FlowNodeValue } from '../../src/flows/ids.js';
import { ATTEMPTS_BEFORE_GIVING_UP } from '../../process/outageRetries.js';
import { addTestMember, createTestGuild, snowflake } from '../harness/fixtures.js';
import { recordFlowRun, startFlowRun } from '../harness/flowRuns.js';
import { useOutageTestBed, whileWritesRefused } from '../harness/outageWorker.js';

const { bed, taskQueue, outlastHour } = useOutageTestBed('flow-outage');

/** A run of "pay, add XP, say so" with a 30 s timeout, recorded as the API records one. */
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
  const record = await recordFlowRun(db, { guildId: guild.id, nodes, timeoutSeconds: 30, input: { userId } });
  return { guild, userId, record, start: () => startFlowRun(bed.client, taskQueue, record) };
}

describe('flow runs across a database outage (time-skipping)', () => {
  it('an effect failing for another reason than an outage gives up after its attempts: the run reads error with it', async () => {
    const db = bed.db();
    // Every record of a flow effect fails the same way: a failure that no wait cures.
    await whileWritesRefused(db, 'flow_effects', 'flow effects refused', async () => {
      const { guild, userId, record, start } = await acceptedRun();
      const handle = await start();
      const error = `node "pay" (bankTransaction): gave up after ${ATTEMPTS_BEFORE_GIVING_UP} attempts: flow effects refused`;
      expect(await handle.result()).toMatchObject({ status: 'error', output: null, error });
      expect(await findFlowRun(db, guild.id, record.executionId)).toMatchObject({ status: 'error', error });
      expect(await db.selectFrom('bank_ledger').select('type').where('guild_id', '=', guild.id).where('user_id', '=', userId).execute()).toEqual([]);
    });
  });

  it("a run whose effects cannot reach the database for an hour, far past its 30 s timeout, succeeds when it is back, each effect once", async () => {
    const db = bed.db();
    const { guild, userId, record, start } = await acceptedRun();
    // Each attempt knocks on the proxy once or more.
    const { outcome, closed, refused } = await outlastHour(start);
    expect(closed).toBe(false);
    expect(refused).toBeGreaterThan(3 * ATTEMPTS_BEFORE_GIVING_UP);

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
