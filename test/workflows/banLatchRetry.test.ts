import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { FlowNodeValue } from '../../src/flows/ids.js';
import { createBanLatch } from '../../src/platform/discord/banLatch.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { createWorker } from '../../process/worker.js';
import { createDiscordGuild } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { recordFlowRun, startFlowRun } from '../harness/flowRuns.js';
import { sharedBundle } from '../harness/temporal.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

// A worker's platform activity that meets the fleet's ban latch (another process met a Cloudflare 429 and stopped
// every Discord request of the fleet for ten minutes) sends nothing and fails with the latch's end as its
// nextRetryDelay (process/outageRetries.ts): its next attempt is scheduled then, not on the retry policy's backoff of
// a second, so no attempt is made into the ban. The time-skipping server fires that attempt at once; the latch's clock
// is the test's, moved past the end by the test.

const BAN_MS = 10 * 60_000;
const bed = useTimeSkippingTestBed({ taskQueue: 'ban-latch-bed' });
const taskQueue = 'ban-latch-test';
const clock = fixedClock(new Date('2026-12-01T10:00:00Z'));
const logger = createLogger('silent', taskQueue);
const latch = createBanLatch({ clock, logger });
let fake: FakeDiscord;
let worker: Worker | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  fake = await startFakeDiscord();
  const platform = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock, logger, latch });
  worker = await createWorker({
    connection: bed.env.nativeConnection,
    namespace: 'default',
    taskQueue,
    bundle: await sharedBundle(),
    deps: { db: bed.db(), platform, clock, logger, temporal: { client: bed.client, taskQueue }, webhooks: { allowInsecureLocal: true } },
  });
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await fake?.close();
});

const ms = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(d?.seconds ?? 0) * 1000 + Math.round((d?.nanos ?? 0) / 1e6);

describe('a worker activity meeting the fleet ban latch', () => {
  it('waits for the latch to end (nextRetryDelay), makes no request meanwhile, then posts once on its second attempt', async () => {
    const g = await createDiscordGuild(bed.db(), fake);
    const nodes = [
      { id: 'start', type: 'trigger', trigger: { kind: 'manual' }, next: 'say' },
      { id: 'say', type: 'sendMessage', channelId: g.channels.general, content: 'Hello after the ban' },
    ] as FlowNodeValue[];
    const record = await recordFlowRun(bed.db(), { guildId: g.id, nodes, timeoutSeconds: 30, input: {} });
    latch.impose(new Date(clock.now().getTime() + BAN_MS), 'cloudflare', 'bot-7 (another process of the fleet)');
    const requestsBefore = fake.requests.length;

    const handle = await startFlowRun(bed.client, taskQueue, record);
    const pending = await eventually(
      async () => (await handle.describe()).raw.pendingActivities?.[0],
      (a) => a?.lastFailure != null,
    );
    expect(pending!.activityType?.name).toBe('flowSendMessage');
    expect(pending!.attempt).toBe(2);
    expect(pending!.lastFailure!.message).toMatch(/Discord requests are stopped \(cloudflare 429\)/);
    expect(ms(pending!.lastFailure!.applicationFailureInfo?.nextRetryDelay)).toBe(BAN_MS);
    expect(fake.requests.length).toBe(requestsBefore);

    // The ban passes on the latch's clock; awaiting the result lets the server skip to the scheduled attempt.
    clock.advance(BAN_MS);
    expect(await handle.result()).toMatchObject({ status: 'success' });
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'flowSendMessage')!;
    const started = events.find((e) => e.activityTaskStartedEventAttributes && Number(e.activityTaskStartedEventAttributes.scheduledEventId) === Number(scheduled.eventId))!;
    expect(started.activityTaskStartedEventAttributes!.attempt).toBe(2);
    expect(ms(started.eventTime) - ms(scheduled.eventTime)).toBeGreaterThanOrEqual(BAN_MS);
    expect([...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.general).map((m) => m.content)).toEqual(['Hello after the ban']);
  });
});
