import { GuildParams } from '../../src/core/contract.js';
import { acceptFlowRun } from '../../src/flows/acceptFlowRun.js';
import { FlowList, FlowParams, FlowRun, FlowRunParams, FlowRunRequest, type FlowRunBody } from '../../src/flows/contract.js';
import { flowRunOperation } from '../../src/flows/flowRunOperation.js';
import { toFlowRunBody } from '../../src/flows/flowViews.js';
import { readFlowRun, waitOnAcceptedFlowRun } from '../../src/flows/readFlowRun.js';
import { readFlows } from '../../src/flows/readFlows.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'flows';
const feature = 'flows';

export function flowsRoutes(deps: AppDeps): RouteDefinition[] {
  const { db, clock } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/flows',
      operationId: 'listFlows',
      summary: "The server's flows",
      description: 'Every flow, in id order; `runnable` flows (enabled, Manual or Webhook trigger) can be run with POST runs.',
      area,
      feature,
      scope: 'flows:read',
      request: { params: GuildParams },
      response: { status: 200, schema: FlowList, description: 'The flows.' },
      handle: ({ caller: { guild } }) => readFlows(db, guild.id),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/flows/runs/{executionId}',
      operationId: 'getFlowRun',
      summary: "A run of one of the server's flows",
      description:
        'From the run itself while it is open, from its durable record once it ended (also after Temporal forgot it). ' +
        'Any run of this server, whatever started it (API, webhook URL, event).',
      area,
      feature,
      scope: 'flows:read',
      request: { params: FlowRunParams },
      response: { status: 200, schema: FlowRun, description: 'The run.' },
      errors: ['FLOW_RUN_NOT_FOUND'],
      handle: ({ params, caller: { guild } }) => readFlowRun(deps, guild.id, params.executionId),
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/flows/{workflowId}/runs',
      operationId: 'runFlow',
      summary: 'Run a Manual or Webhook flow',
      description:
        'Starts a run with `input` as its trigger data; it counts toward the daily run quota (Free 100, Pro 10,000 per UTC ' +
        'day, every trigger counted; 429 FLOW_RUN_QUOTA_EXHAUSTED with Retry-After until the next day). Without `wait`: ' +
        '202 at once with the run `running` (accepted, then started within seconds; poll GET runs/{executionId}: `running`, then ' +
        '`success`, `error`, `stopped` (its timeout) or `cancelled`). With `wait`: 200 with the final status and output when the run ends within ' +
        '`timeoutSeconds`, else 202 with the run still `running` (poll GET runs/{executionId}). A disabled flow answers ' +
        '409 FLOW_DISABLED, an event-triggered one 409 FLOW_NOT_RUNNABLE, an unknown one 404 FLOW_NOT_FOUND. A replay ' +
        'of the same Idempotency-Key answers the same run (waited on again with `wait`).',
      area,
      feature,
      scope: 'flows:run',
      sensitive: true,
      idempotent: true,
      request: { params: FlowParams, body: FlowRunRequest },
      response: { status: 202, schema: FlowRun, description: 'The run, started (or still running when the wait ran out).' },
      otherResponses: [{ status: 200, description: 'With `wait`: the run ended within the wait; its final status and output.' }],
      errors: ['FLOW_NOT_FOUND', 'FLOW_DISABLED', 'FLOW_NOT_RUNNABLE', 'FLOW_RUN_QUOTA_EXHAUSTED', 'IDEMPOTENCY_KEY_REUSED'],
      async handle({ params, body, caller, db: trx, launch }) {
        const { run } = await acceptFlowRun(trx, {
          guild: caller.guild,
          flowId: params.workflowId,
          source: 'api',
          input: body.input ?? null,
          apiKeyId: caller.apiKey.id,
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
          requestId: caller.requestId,
          at: clock.now(),
        });
        // Accepted like every asynchronous write: started once the answer is out, or by the start relay.
        launch(flowRunOperation, run);
        return toFlowRunBody(run);
      },
      // Only `wait` asks Temporal before answering, within its deadline (the start too: the run must exist to be waited on).
      async settle(stored, { body, caller }) {
        const accepted = stored as FlowRunBody;
        if (!body.wait) return { status: 202, body: accepted };
        const finished = await waitOnAcceptedFlowRun(
          deps,
          { guildId: caller.guild.id, executionId: accepted.executionId },
          { timeoutSeconds: body.timeoutSeconds, keyName: caller.apiKey.name },
        );
        return finished ? { status: 200, body: finished } : { status: 202, body: accepted };
      },
    }),
  ];
}
