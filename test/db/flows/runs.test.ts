import { expect, it } from 'vitest';
import { insertFlow } from '../../../db/flows/flows.js';
import { findFlowRun, finishFlowRun, insertFlowRun } from '../../../db/flows/runs.js';
import { useTestDatabase } from '../../harness/database.js';
import { createTestGuild } from '../../harness/fixtures.js';

const database = useTestDatabase();

const STARTED = new Date('2026-11-01T00:00:00.000Z');
// 25 days: past what an integer column holds (2^31 - 1 ms, about 24.8 days).
const DURATION_MS = 25 * 86_400_000;

it('records the end of a run held open longer than 2^31 ms, and reads its whole duration back', async () => {
  expect(DURATION_MS).toBeGreaterThan(2 ** 31);
  const db = database.db;
  const guild = await createTestGuild(db);
  const flow = await insertFlow(db, guild.id, {
    name: 'Long run',
    description: null,
    triggerType: 'manual',
    triggerEvent: null,
    definition: { nodes: [] },
    timeoutSeconds: 60,
    enabled: true,
    webhookTokenHash: null,
    at: STARTED,
  });
  const run = await insertFlowRun(db, {
    guildId: guild.id,
    flowId: flow.id,
    flowVersion: 1,
    source: 'api',
    nodes: [],
    timeoutSeconds: 60,
    input: null,
    apiKeyId: null,
    eventId: null,
    startedAt: STARTED,
  });
  const finishedAt = new Date(STARTED.getTime() + DURATION_MS);
  await finishFlowRun(db, run!.executionId, { status: 'success', output: { done: true }, error: null, finishedAt, durationMs: DURATION_MS });
  expect(await findFlowRun(db, guild.id, run!.executionId)).toMatchObject({ status: 'success', finishedAt, durationMs: DURATION_MS });
});
