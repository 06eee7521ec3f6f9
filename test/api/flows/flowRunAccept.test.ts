import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFlowRun } from '../../../db/flows/runs.js';
import { systemClock } from '../../../src/core/clock.js';
import type { TemporalGateway } from '../../../src/core/temporal/gateway.js';
import { relayUnstarted } from '../../../src/core/temporal/operation.js';
import { flowRunOperation } from '../../../src/flows/flowRunOperation.js';
import { flowRunWorkflowId } from '../../../src/flows/ids.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer } from '../../harness/fixtures.js';
import { createHttpClient } from '../../harness/httpClient.js';
import { startTestApp, type TestApp } from '../../harness/testApp.js';
import { flowsGuild, manualFlow, saveFlow, threeNodeFlow } from './flowFixtures.js';

// A flow run is accepted like every other asynchronous write: committed, answered, then started (after the answer,
// or by the start relay). Here Temporal does not answer at all: a server that takes connections and never replies,
// as a frozen Temporal does. The bed's own gateway (a task queue nobody polls) plays the relay's reachable Temporal.
const { db, gateway } = useApiTestBed({ temporal: true });

let frozen: Server;
const held = new Set<Socket>();
let frozenGateway: TemporalGateway;
let offline: TestApp & { close(): Promise<void> };
beforeAll(async () => {
  frozen = createServer((socket) => void held.add(socket));
  await new Promise<void>((resolve) => frozen.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(frozen.address() as AddressInfo).port}`;
  frozenGateway = { client: new Client({ connection: Connection.lazy({ address }) }), taskQueue: gateway.taskQueue };
  offline = await startTestApp(db(), { deps: { temporal: frozenGateway } });
});
// The frozen gateway's connection is left to the end of the file's process: closed under calls that never got an
// answer, the client library rejects inside itself, where nobody can catch it.
afterAll(async () => {
  await offline?.close();
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => frozen.close(() => resolve()));
});

const runFlow = (app: TestApp, guildId: string, key: string, flowId: number, body: unknown) =>
  app.http('POST', `/guilds/${guildId}/flows/${flowId}/runs`, { headers: bearer(key), body });

describe('POST /flows/{workflowId}/runs while Temporal does not answer', () => {
  it('without wait: 202 running at once, committed unstarted; the start relay starts it once Temporal answers', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const res = await runFlow(offline, guild.id, key, flow.id, { input: { n: 2 }, wait: false });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ workflowId: flow.id, status: 'running', output: null, error: null, finishedAt: null });
    const executionId = res.body.executionId as number;
    expect(await findFlowRun(db(), guild.id, executionId)).toMatchObject({ status: 'running', input: { n: 2 }, workflowStartedAt: null });

    // The relay pass of the worker, with a Temporal that answers.
    expect(await relayUnstarted({ db: db(), temporal: gateway, clock: systemClock }, flowRunOperation, { graceMs: 0, batch: 100 })).toBe(1);
    expect((await findFlowRun(db(), guild.id, executionId))!.workflowStartedAt).not.toBeNull();
    const described = await gateway.client.workflow.getHandle(flowRunWorkflowId(guild.id, executionId)).describe();
    expect(described.status.name).toBe('RUNNING');
  });

  it('with wait: the wait keeps its deadline (202 running once timeoutSeconds passed), the run committed for the relay', async () => {
    const { guild, key } = await flowsGuild(db());
    const { flow } = await saveFlow(db(), guild, threeNodeFlow());
    const res = await runFlow(offline, guild.id, key, flow.id, { wait: true, timeoutSeconds: 1 });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ workflowId: flow.id, status: 'running' });
    expect(await findFlowRun(db(), guild.id, res.body.executionId)).toMatchObject({ status: 'running', workflowStartedAt: null });
  });

  it('through a webhook flow URL: 202 with the run at once, committed unstarted for the relay', async () => {
    const { guild } = await flowsGuild(db());
    const { flow, webhookToken } = await saveFlow(db(), guild, manualFlow([{ id: 'done', type: 'set', values: { ok: true } }], { trigger: { id: 'start', type: 'trigger', trigger: { kind: 'webhook' } } }));
    const res = await createHttpClient(offline.baseUrl)('POST', `/hooks/flows/${webhookToken}`, { body: { name: 'Grace' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ workflowId: flow.id, status: 'running' });
    expect(await findFlowRun(db(), guild.id, res.body.executionId)).toMatchObject({ status: 'running', source: 'webhook', workflowStartedAt: null });
  });
});
