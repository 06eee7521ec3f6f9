import { proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { FlowsActivities } from '../../activities/flows.js';
import { HTTP_TIMEOUT_MS, type FlowNodeValue, type FlowRunInput } from '../../src/flows/ids.js';
import { DATABASE_STEP, FLOW_EFFECT, FLOW_EXPRESSION, FLOW_PLATFORM_EFFECT, SINGLE_ATTEMPT } from '../activityProfiles.js';
import { NodeFailure } from './nodeFailure.js';
import type { TimeBudget } from './timeBudget.js';

const expressions = proxyLocalActivities<FlowsActivities>(FLOW_EXPRESSION);
const boundedEffects = proxyActivities<FlowsActivities>(FLOW_EFFECT);
// From patch `flow-run-outlasts-outages` on: bank and XP nodes are short database steps, message and role nodes
// platform effects; both outlast outages and give up on any other failure after their attempts.
const databaseEffects = proxyLocalActivities<FlowsActivities>(DATABASE_STEP);
const platformEffects = proxyActivities<FlowsActivities>(FLOW_PLATFORM_EFFECT);
// A request is sent at most once: a retried POST could act twice on the receiver.
const requests = proxyActivities<FlowsActivities>(SINGLE_ATTEMPT);

/** What one node did: its output, and the node to go on with (none: the run ends here). */
export type NodeStep = { output: unknown; next: string | undefined; stop?: { status: 'success' | 'error'; message: string | null } };

const hasExpression = (value: unknown): boolean => {
  if (typeof value === 'string') return value.startsWith('=');
  if (Array.isArray(value)) return value.some(hasExpression);
  if (value && typeof value === 'object') return Object.values(value).some(hasExpression);
  return false;
};

/**
 * Runs one node; `outputs` holds the trigger's and earlier nodes' outputs by node id (the expressions' `nodes`).
 * With a `budget` (runs from patch `flow-run-outlasts-outages` on) waits and requests count against the flow's
 * timeout and effects outlast outages; without one (older runs) a timer around the walk bounds it.
 */
export async function runNode(node: FlowNodeValue, run: FlowRunInput, outputs: Record<string, unknown>, budget: TimeBudget | undefined): Promise<NodeStep> {
  // Expressions are evaluated in an activity (JSONata with its guards), never in workflow code.
  const resolve = async (params: unknown): Promise<unknown> =>
    hasExpression(params) ? expressions.resolveFlowParams(params, { trigger: run.trigger, nodes: outputs }) : params;
  const ref = { guildId: run.guildId, executionId: run.executionId, nodeId: node.id };
  const onPlatform = budget ? platformEffects : boundedEffects;
  const onDatabase = budget ? databaseEffects : boundedEffects;
  switch (node.type) {
    case 'trigger':
      return { output: run.trigger, next: node.next };
    case 'set':
      return { output: await resolve(node.values), next: node.next };
    case 'if': {
      const taken = (await resolve(node.condition)) === true;
      return { output: { result: taken }, next: taken ? node.next.true : node.next.false };
    }
    case 'switch': {
      const whens = (await resolve(node.cases.map((c) => c.when))) as unknown[];
      const index = whens.findIndex((w) => w === true);
      const port = index < 0 ? 'default' : node.cases[index]!.port;
      return { output: { port }, next: node.next[port] };
    }
    case 'wait': {
      const seconds = await resolve(node.seconds);
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > 86_400) {
        throw new NodeFailure(`seconds must be a whole number from 1 to 86400, got ${JSON.stringify(seconds)}`);
      }
      await (budget ? budget.wait(seconds * 1000) : sleep(seconds * 1000));
      return { output: { waitedSeconds: seconds }, next: node.next };
    }
    case 'http': {
      const params = (await resolve({ url: node.url, headers: node.headers ?? {}, body: node.body ?? null })) as Record<string, unknown>;
      const send = () => requests.flowHttpRequest(ref, { method: node.method, ...params });
      return { output: await (budget ? budget.request(HTTP_TIMEOUT_MS, send) : send()), next: node.next };
    }
    case 'sendMessage': {
      const params = await resolve({ channelId: node.channelId, content: node.content });
      return { output: await onPlatform.flowSendMessage(ref, params), next: node.next };
    }
    case 'addRole':
    case 'removeRole': {
      const params = await resolve({ userId: node.userId, roleId: node.roleId });
      return { output: await onPlatform.flowChangeRole(ref, node.type === 'addRole' ? 'add' : 'remove', params), next: node.next };
    }
    case 'bankTransaction': {
      const params = await resolve({ userId: node.userId, action: node.action, amount: node.amount, reason: node.reason ?? null });
      return { output: await onDatabase.flowBankTransaction(ref, params), next: node.next };
    }
    case 'xpChange': {
      const params = await resolve({ userId: node.userId, action: node.action, unit: node.unit, amount: node.amount });
      return { output: await onDatabase.flowXpChange(ref, params), next: node.next };
    }
    case 'stop': {
      const message = (await resolve(node.message ?? null)) as unknown;
      const text = message === null ? null : typeof message === 'string' ? message : JSON.stringify(message);
      return { output: { status: node.status, message: text }, next: undefined, stop: { status: node.status, message: text } };
    }
  }
}
