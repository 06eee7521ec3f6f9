import { afterAll, describe, expect, it } from 'vitest';
import { saveBankSettings } from '../../db/bank/accounts.js';
import { claimEventBatch } from '../../db/shared/events.js';
import { applyBankChange } from '../../src/bank/applyBankChange.js';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { serverError, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { createDiscordGuild, discordPlatformOn } from '../harness/discordGuild.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// A batch's bank log lines posted through the Discord adapter to the fake: a post that fails part-way through the
// batch is tried again from the line that failed, not from the first one (patch webhook-batch-bank-log-resume).

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, gateway } = useWorkflowTestBed({ worker: { platform } });

const LINES = 5;

describe('a batch bank log post interrupted mid-way', () => {
  it('resumes after the last line it posted: every line once, in commit order, none skipped', async () => {
    const g = await createDiscordGuild(db(), fake);
    const userId = g.addMember();
    await saveBankSettings(db(), g.id, { currency: { name: 'coin', plural: 'coins', emoji: null }, startingBalance: 0, maxBalance: null, logChannelId: g.channels.log });
    const transactionIds: number[] = [];
    const eventIds: string[] = [];
    for (let i = 0; i < LINES; i++) {
      const { change, events } = await db()
        .transaction()
        .execute((trx) =>
          applyBankChange(trx, { guildId: g.id, userId, type: 'add', amount: 1, reason: null, actor: { type: 'api_key', apiKeyId: g.keyId, userId: null }, requestId: `resume-${i}`, at: new Date() }),
        );
      transactionIds.push(change.transactionId);
      eventIds.push(...events.map((e) => e.id));
    }
    const { batchId } = (await claimEventBatch(db(), eventIds))!;
    const posts = `/channels/${g.channels.log}/messages`;
    // The first two lines go through; the third one's post fails (Discord answers 502), which fails the try.
    fake.fail({ method: 'POST', path: posts, times: 2 });
    fake.fail({ method: 'POST', path: posts, answer: serverError() });

    const handle = await gateway.client.workflow.start('webhookBatch', {
      workflowId: webhookBatchWorkflowId(g.id, batchId),
      taskQueue: gateway.taskQueue,
      args: [{ batchId, guildId: g.id }],
    });
    expect(await handle.result()).toEqual({ succeeded: 0, retrying: 0, cancelled: 0 });

    const lineOf = (content: unknown) => Number(/\[#(\d+)\]$/.exec(String(content))![1]);
    const tried = fake.requests.filter((r) => r.method === 'POST' && r.path === posts).map((r) => [lineOf(r.body!.content), r.status]);
    const [t1, t2, t3, t4, t5] = transactionIds;
    // The second try starts at the third line: the first two are not posted again.
    expect(tried).toEqual([[t1, 200], [t2, 200], [t3, 502], [t3, 200], [t4, 200], [t5, 200]]);
    const inChannel = [...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.log).map((m) => lineOf(m.content));
    expect(inChannel).toEqual(transactionIds);

    const history = await handle.fetchHistory();
    const tries = history.events!.flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : []));
    expect(tries).toEqual([2]);
  });
});
