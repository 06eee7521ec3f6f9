import { expect, it } from 'vitest';
import { freePort } from '../../process/infra/freePort.js';
import { installTemporalMetrics } from '../../process/ops/temporalMetrics.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// Before the bed's worker connects: the SDK's runtime (and its exporter) is made once per process, and each
// test file runs in a process of its own.
const port = await freePort();
installTemporalMetrics('127.0.0.1', port);
const { database, app } = useWorkflowTestBed();

it("serves the Temporal SDK's own metrics with Prometheus names on its own listener", async () => {
  const guild = await createTestGuild(database.db);
  const { key } = await createTestKey(database.db, guild, { scopes: ['levels:read', 'levels:write'] });
  const userId = await addTestMember(database.db, guild);
  const res = await app.http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, { headers: bearer(key), body: { type: 'add', amount: 10 } });
  expect(res.status).toBe(202);
  const poll = () => app.http('GET', `/guilds/${guild.id}/levels/xp-changes/${res.body.changeId}`, { headers: bearer(key) });
  expect((await eventually(poll, (r) => r.body?.status === 'done')).body.status).toBe('done');

  const text = await eventually(
    async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text(),
    (body) => /^temporal_workflow_completed_total\{/m.test(body),
  );
  expect(text).toMatch(/^temporal_workflow_completed_total\{.*workflow_type="xpChange".*\} [1-9]/m);
  expect(text).toMatch(/^temporal_workflow_task_execution_latency_seconds_bucket\{/m);
});
