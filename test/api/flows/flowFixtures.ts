import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { FEATURES, type Feature } from '../../../src/core/features.js';
import type { Plan } from '../../../src/core/plans.js';
import type { Scope } from '../../../src/core/scopes.js';
import type { FlowDefinitionInput } from '../../../src/flows/definition.js';
import { createFlow } from '../../../src/flows/manageFlows.js';
import { createTestGuild, createTestKey, type TestGuild } from '../../harness/fixtures.js';

// Flows saved as an operator saves them (through the area's use case), and the guilds and keys to run them.

export async function flowsGuild(db: Kysely<Database>, options: { plan?: Plan; features?: Feature[]; scopes?: Scope[] } = {}) {
  const guild = await createTestGuild(db, { plan: options.plan ?? 'pro', features: options.features ?? [...FEATURES] });
  const { key, id: keyId } = await createTestKey(db, guild, { scopes: options.scopes ?? ['flows:read', 'flows:run'] });
  return { guild, key, keyId };
}

export async function saveFlow(db: Kysely<Database>, guild: TestGuild, definition: FlowDefinitionInput, options: { enabled?: boolean } = {}) {
  return db
    .transaction()
    .execute((trx) => createFlow(trx, { guildId: guild.id, definition, enabled: options.enabled ?? true, actor: { type: 'system' }, at: new Date() }));
}

type Nodes = FlowDefinitionInput['nodes'];

/** A manual flow: the trigger, then `nodes` in the order given, each leading to the next unless it says otherwise. */
export function manualFlow(nodes: Nodes, options: { name?: string; timeoutSeconds?: number; trigger?: Nodes[number] } = {}): FlowDefinitionInput {
  const trigger = options.trigger ?? { id: 'start', type: 'trigger', trigger: { kind: 'manual' } };
  const chained = [trigger, ...nodes].map((n, i, all) => {
    const following = all[i + 1];
    if (!following || n.type === 'if' || n.type === 'switch' || n.type === 'stop' || 'next' in n) return n;
    return { ...n, next: following.id };
  });
  return { name: options.name ?? 'Test flow', timeoutSeconds: options.timeoutSeconds ?? 30, nodes: chained as Nodes };
}

/** Three nodes: build data, branch on it, build the answer (the bench's flow too). */
export const threeNodeFlow = (): FlowDefinitionInput => ({
  name: 'Double it',
  timeoutSeconds: 30,
  nodes: [
    { id: 'start', type: 'trigger', trigger: { kind: 'manual' }, next: 'double' },
    { id: 'double', type: 'set', values: { value: '=trigger.n * 2' }, next: 'big' },
    { id: 'big', type: 'if', condition: '=nodes.double.value > 10', next: { true: 'yes', false: 'no' } },
    { id: 'yes', type: 'set', values: { size: 'big', value: '=nodes.double.value' } },
    { id: 'no', type: 'set', values: { size: 'small', value: '=nodes.double.value' } },
  ],
});
