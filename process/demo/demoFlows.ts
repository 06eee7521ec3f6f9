import type { Kysely } from 'kysely';
import { listFlows } from '../../db/flows/flows.js';
import type { Database } from '../../db/schema.js';
import type { FlowDefinitionInput } from '../../src/flows/definition.js';
import { createFlow } from '../../src/flows/manageFlows.js';

/** The demo's three flows, one per trigger kind (docs/flows.md walks through them). */
export function demoFlowDefinitions(channels: { general: string; log: string }): FlowDefinitionInput[] {
  return [
    {
      name: 'Pay a reward',
      description: 'Manual: pays `input.amount` coins (default 50) to `input.userId` and says so in #general.',
      timeoutSeconds: 30,
      nodes: [
        { id: 'start', type: 'trigger', trigger: { kind: 'manual' }, next: 'reward' },
        { id: 'reward', type: 'set', values: { userId: '=trigger.userId', amount: '=$exists(trigger.amount) ? trigger.amount : 50' }, next: 'pay' },
        { id: 'pay', type: 'bankTransaction', userId: '=nodes.reward.userId', action: 'add', amount: '=nodes.reward.amount', reason: 'Flow reward', next: 'announce' },
        {
          id: 'announce',
          type: 'sendMessage',
          channelId: channels.general,
          content: '="<@" & nodes.reward.userId & "> earned " & $string(nodes.reward.amount) & " coins (balance " & $string(nodes.pay.balance) & ")."',
        },
      ],
    },
    {
      name: 'Deploy notice',
      description: 'Webhook: a CI system posts {status, service}; failures go to #bank-log for staff, successes to #general.',
      timeoutSeconds: 30,
      nodes: [
        { id: 'start', type: 'trigger', trigger: { kind: 'webhook' }, next: 'outcome' },
        { id: 'outcome', type: 'if', condition: '=trigger.body.status = "success"', next: { true: 'shipped', false: 'failed' } },
        { id: 'shipped', type: 'sendMessage', channelId: channels.general, content: '="Deployed " & trigger.body.service & "."' },
        { id: 'failed', type: 'sendMessage', channelId: channels.log, content: '="Deploy of " & trigger.body.service & " failed: " & trigger.body.status', next: 'stop' },
        { id: 'stop', type: 'stop', status: 'error', message: 'deploy failed' },
      ],
    },
    {
      name: 'Welcome',
      description: 'Event: greets every member who joins in #general.',
      timeoutSeconds: 30,
      nodes: [
        { id: 'start', type: 'trigger', trigger: { kind: 'event', event: 'members.joined' }, next: 'greet' },
        { id: 'greet', type: 'sendMessage', channelId: channels.general, content: '="Welcome <@" & trigger.data.userId & ">!"' },
      ],
    },
  ];
}

/** Seeds the demo flows once (a guild that has flows keeps them), enabled. */
export async function seedDemoFlows(db: Kysely<Database>, guildId: string, channels: { general: string; log: string }, now: Date): Promise<void> {
  if ((await listFlows(db, guildId)).length > 0) return;
  await db.transaction().execute(async (trx) => {
    for (const definition of demoFlowDefinitions(channels)) {
      await createFlow(trx, { guildId, definition, enabled: true, actor: { type: 'system' }, at: now });
    }
  });
}
