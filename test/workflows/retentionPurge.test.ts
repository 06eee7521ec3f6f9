import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { RETENTION_DAYS_BY_PLAN } from '../../src/core/retention.js';
import { purgeExpiredRecordsWorkflow, type RetentionPurgeResult } from '../../src/keys/ids.js';
import { bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { insertFlowRun, insertModAction, insertTicket, insertXpChange } from '../harness/retentionRows.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// The schedule's workflow on the dev server (patch `retention-purge`) with the worker's and the api's clock fixed:
// the status and read endpoints answer a record until its retention ends and 404 with their not-found code after.
const NOW = new Date('2031-03-10T12:00:00.000Z');
const DAY = 86_400_000;
const clock = fixedClock(NOW);
const { db, app, gateway } = useWorkflowTestBed({ worker: { clock }, app: { clock } });

let runs = 0;
const purge = () =>
  gateway.client.workflow.execute(purgeExpiredRecordsWorkflow.name, {
    taskQueue: gateway.taskQueue,
    workflowId: `maintenance/purge-expired-records/test-${++runs}`,
    args: [{ batchRows: 2 }],
  }) as Promise<RetentionPurgeResult>;

describe('reads after retention', () => {
  it('a purged XP change, moderation action, flow run and transcript answer 404 with their code; younger ones still answer', async () => {
    const guild = await createTestGuild(db(), { plan: 'free' });
    const { key, id: keyId } = await createTestKey(db(), guild);
    const get = (path: string) => app.http('GET', `/guilds/${guild.id}${path}`, { headers: bearer(key) });
    const at = (kind: keyof typeof RETENTION_DAYS_BY_PLAN, over: number) => new Date(NOW.getTime() - RETENTION_DAYS_BY_PLAN[kind].free * DAY - over);
    const paths = {
      expired: [
        `/levels/xp-changes/${await insertXpChange(db(), guild.id, at('xpChanges', 1), keyId)}`,
        `/moderation/actions/${await insertModAction(db(), guild.id, at('moderationActions', 1), keyId)}`,
        `/flows/runs/${await insertFlowRun(db(), guild.id, at('flowRuns', 1))}`,
        `/tickets/${await insertTicket(db(), guild.id, at('ticketTranscripts', 1))}/transcript`,
      ],
      kept: [
        `/levels/xp-changes/${await insertXpChange(db(), guild.id, at('xpChanges', -1), keyId)}`,
        `/moderation/actions/${await insertModAction(db(), guild.id, at('moderationActions', -1), keyId)}`,
        `/flows/runs/${await insertFlowRun(db(), guild.id, at('flowRuns', -1))}`,
        `/tickets/${await insertTicket(db(), guild.id, at('ticketTranscripts', -1))}/transcript`,
      ],
    };
    for (const path of [...paths.expired, ...paths.kept]) expect((await get(path)).status, path).toBe(200);

    const result = await purge();
    expect(result).toMatchObject({ complete: true, purged: expect.objectContaining({ xpChanges: 1, moderationActions: 1, flowRuns: 1, ticketTranscripts: 2 }) });

    const answers = await Promise.all(paths.expired.map(async (path) => [(await get(path)).status, (await get(path)).body.error]));
    expect(answers).toEqual([
      [404, 'XP_CHANGE_NOT_FOUND'],
      [404, 'ACTION_NOT_FOUND'],
      [404, 'FLOW_RUN_NOT_FOUND'],
      [404, 'TRANSCRIPT_NOT_FOUND'],
    ]);
    for (const path of paths.kept) expect((await get(path)).status, path).toBe(200);
    // The ticket itself stays, without its transcript.
    const ticket = await get(paths.expired[3]!.replace('/transcript', ''));
    expect(ticket.body).toMatchObject({ status: 'closed', hasTranscript: false });
  });
});

describe('64-bit flow run ids', () => {
  it('a run numbered past 2^31 is stored with its effects, answered by its id, and purged like any other', async () => {
    const guild = await createTestGuild(db());
    const { key } = await createTestKey(db(), guild);
    await sql`select setval('flow_run_execution_seq', ${2 ** 31 + 10})`.execute(db());
    const young = await insertFlowRun(db(), guild.id, new Date(NOW.getTime() - DAY));
    const old = await insertFlowRun(db(), guild.id, new Date(NOW.getTime() - 400 * DAY));
    expect(young).toBe(2 ** 31 + 11);
    const res = await app.http('GET', `/guilds/${guild.id}/flows/runs/${young}`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ executionId: 2 ** 31 + 11, status: 'success' });

    await purge();
    const left = await db().selectFrom('flow_runs').select('execution_id').where('guild_id', '=', guild.id).execute();
    expect(left.map((r) => r.execution_id)).toEqual([young]);
    expect(await db().selectFrom('flow_effects').select('execution_id').where('execution_id', '=', old).execute()).toEqual([]);
  });
});
