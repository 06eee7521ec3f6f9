import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { wakeEndDispatcher } from '../../src/giveaways/endDispatcher.js';
import { giveawayEndDispatcherId } from '../../src/giveaways/ids.js';
import { testGateway } from '../harness/temporal.js';

// Wakes of a dispatcher from one process (src/core/temporal/dispatcherWake.ts), on the dev server. Nothing polls the
// test's task queue, so the dispatcher's run only collects the signals that reached it.

async function signalsTo(gateway: ReturnType<typeof testGateway>): Promise<number[][]> {
  const handle = gateway.client.workflow.getHandle(giveawayEndDispatcherId(gateway.taskQueue));
  const { events } = await handle.fetchHistory();
  await handle.terminate('test over');
  return events!
    .filter((e) => e.workflowExecutionSignaledEventAttributes)
    .map((e) => e.workflowExecutionSignaledEventAttributes!.input!.payloads!.map((p) => JSON.parse(Buffer.from(p.data!).toString('utf8')) as number));
}

describe('dispatcher wakes from one process', () => {
  it('asked together leave as two signals: the first at once, the others as one with the earliest due among them', async () => {
    const gateway = testGateway();
    // The first wake, then 199 that come while it is in flight, the earliest of them due in 100,200 ms.
    const dues = [90_000, ...Array.from({ length: 199 }, (_, i) => 120_000 - i * 100)];
    await Promise.all(dues.map((inMs) => wakeEndDispatcher(gateway, { inMs })));
    expect(await signalsTo(gateway)).toEqual([[90_000], [100_200]]);
  });

  it('carry the earliest time on Temporal\'s clock among those given, beside the earliest time left', async () => {
    const gateway = testGateway();
    const at = 1_900_000_000_000;
    await Promise.all([
      wakeEndDispatcher(gateway, { inMs: 0 }),
      wakeEndDispatcher(gateway, { inMs: 60_000, at: at + 5_000 }),
      wakeEndDispatcher(gateway, { inMs: 30_000 }),
      wakeEndDispatcher(gateway, { inMs: 90_000.4, at: at + 0.4 }),
    ]);
    expect(await signalsTo(gateway)).toEqual([[0], [30_000, at]]);
  });

  it('a signal Temporal refuses fails every wake it carried, and the next wake is sent again', async () => {
    const gateway = testGateway();
    const refusing = { client: new Client({ connection: gateway.client.connection, namespace: 'no-such-namespace' }), taskQueue: gateway.taskQueue };
    const refused = await Promise.allSettled([0, 1_000, 2_000].map((inMs) => wakeEndDispatcher(refusing, { inMs })));
    expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const again = await Promise.allSettled([wakeEndDispatcher(refusing, { inMs: 0 })]);
    expect(again[0]!.status).toBe('rejected');
    // The same dispatcher through a client that reaches it: nothing of the refused wakes arrived.
    await wakeEndDispatcher(gateway, { inMs: 5_000 });
    expect(await signalsTo(gateway)).toEqual([[5_000]]);
  });
});
