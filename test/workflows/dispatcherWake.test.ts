import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { wakeEndDispatcher } from '../../src/giveaways/endDispatcher.js';
import { giveawayEndDispatcherId } from '../../src/giveaways/ids.js';
import { testGateway } from '../harness/temporal.js';

// Wakes of a dispatcher from one process (src/core/temporal/dispatcherWake.ts), on the dev server. Nothing polls the
// test's task queue, so the dispatcher's run only collects the signals that reached it.

async function signalsTo(gateway: ReturnType<typeof testGateway>): Promise<number[]> {
  const handle = gateway.client.workflow.getHandle(giveawayEndDispatcherId(gateway.taskQueue));
  const { events } = await handle.fetchHistory();
  await handle.terminate('test over');
  return events!
    .filter((e) => e.workflowExecutionSignaledEventAttributes)
    .map((e) => JSON.parse(Buffer.from(e.workflowExecutionSignaledEventAttributes!.input!.payloads![0]!.data!).toString('utf8')) as number);
}

describe('dispatcher wakes from one process', () => {
  it('asked together leave as two signals: the first at once, the others as one with the earliest due among them', async () => {
    const gateway = testGateway();
    // The first wake, then 199 that come while it is in flight, the earliest of them due in 100,200 ms.
    const dues = [90_000, ...Array.from({ length: 199 }, (_, i) => 120_000 - i * 100)];
    await Promise.all(dues.map((dueInMs) => wakeEndDispatcher(gateway, dueInMs)));
    const signals = await signalsTo(gateway);
    expect(signals).toHaveLength(2);
    expect(signals[0]).toBe(90_000);
    expect(signals[1]).toBe(100_200);
  });

  it('a signal Temporal refuses fails every wake it carried, and the next wake is sent again', async () => {
    const gateway = testGateway();
    const refusing = { client: new Client({ connection: gateway.client.connection, namespace: 'no-such-namespace' }), taskQueue: gateway.taskQueue };
    const refused = await Promise.allSettled([0, 1_000, 2_000].map((dueInMs) => wakeEndDispatcher(refusing, dueInMs)));
    expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const again = await Promise.allSettled([wakeEndDispatcher(refusing, 0)]);
    expect(again[0]!.status).toBe('rejected');
    // The same dispatcher through a client that reaches it: nothing of the refused wakes arrived.
    await wakeEndDispatcher(gateway, 5_000);
    expect(await signalsTo(gateway)).toEqual([5_000]);
  });
});
