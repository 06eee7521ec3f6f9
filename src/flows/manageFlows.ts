import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { deleteFlow, findFlow, insertFlow, setFlowEnabled, setFlowWebhookToken, updateFlowDefinition, type FlowFields, type FlowRecord } from '../../db/flows/flows.js';
import { findGuild } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { FlowDefinitionValue } from './definition.js';
import { triggerOf } from './definitionRules.js';
import { checkFlowDefinition, FlowRefusal } from './flowDefinitionCheck.js';

export interface FlowCommand {
  guildId: string;
  actor: AuditActor;
  at: Date;
}

/** A webhook flow's token: shown once (in its URL), stored as a SHA-256 hash. */
export const newWebhookToken = () => `fwh_${randomBytes(32).toString('base64url')}`;
export const hashWebhookToken = (token: string) => createHash('sha256').update(token).digest();

function fieldsOf(definition: FlowDefinitionValue): FlowFields {
  const trigger = triggerOf(definition);
  return {
    name: definition.name,
    description: definition.description ?? null,
    triggerType: trigger.kind,
    triggerEvent: trigger.kind === 'event' ? trigger.event : null,
    definition,
    timeoutSeconds: definition.timeoutSeconds,
  };
}

async function requireGuild(trx: Kysely<Database>, guildId: string) {
  if (!(await findGuild(trx, guildId))) throw new FlowRefusal('GUILD_NOT_FOUND', `Guild ${guildId} does not exist.`);
}

const audit = (trx: Kysely<Database>, c: FlowCommand, action: string, flowId: number, data: Record<string, unknown> = {}) =>
  writeAudit(trx, { guildId: c.guildId, actor: c.actor, action, target: { type: 'flow', id: String(flowId) }, data });

/** Saves a new flow (disabled unless `enabled`); a webhook flow gets its token, returned once. */
export async function createFlow(trx: Kysely<Database>, c: FlowCommand & { definition: unknown; enabled: boolean }) {
  await requireGuild(trx, c.guildId);
  const definition = checkFlowDefinition(c.definition);
  const fields = fieldsOf(definition);
  const webhookToken = fields.triggerType === 'webhook' ? newWebhookToken() : null;
  const flow = await insertFlow(trx, c.guildId, { ...fields, enabled: c.enabled, webhookTokenHash: webhookToken ? hashWebhookToken(webhookToken) : null, at: c.at });
  await audit(trx, c, 'flows.create', flow.id, { name: flow.name, triggerType: flow.triggerType, enabled: flow.enabled });
  return { flow, webhookToken };
}

/**
 * Saves a new version of a flow's definition. Runs in progress keep the nodes they started with. A flow that
 * becomes a webhook flow gets a token; one that stops being one loses its token (and URL).
 */
export async function updateFlow(trx: Kysely<Database>, c: FlowCommand & { id: number; definition: unknown }) {
  const current = await requireFlow(trx, c.guildId, c.id);
  const fields = fieldsOf(checkFlowDefinition(c.definition));
  const becomesWebhook = fields.triggerType === 'webhook' && !current.hasWebhookToken;
  const webhookToken = becomesWebhook ? newWebhookToken() : null;
  const tokenHash = fields.triggerType !== 'webhook' ? null : webhookToken ? hashWebhookToken(webhookToken) : undefined;
  const flow = (await updateFlowDefinition(trx, c.guildId, c.id, { ...fields, webhookTokenHash: tokenHash, at: c.at }))!;
  await audit(trx, c, 'flows.update', flow.id, { version: flow.version, triggerType: flow.triggerType });
  return { flow, webhookToken };
}

const flowNotFound = (guildId: string, id: number) => new FlowRefusal('FLOW_NOT_FOUND', `Guild ${guildId} has no flow ${id}.`);

export async function requireFlow(db: Kysely<Database>, guildId: string, id: number): Promise<FlowRecord> {
  const flow = await findFlow(db, guildId, id);
  if (!flow) throw flowNotFound(guildId, id);
  return flow;
}

export async function changeFlowEnabled(trx: Kysely<Database>, c: FlowCommand & { id: number; enabled: boolean }): Promise<FlowRecord> {
  const flow = await setFlowEnabled(trx, c.guildId, c.id, c.enabled, c.at);
  if (!flow) throw flowNotFound(c.guildId, c.id);
  await audit(trx, c, c.enabled ? 'flows.enable' : 'flows.disable', c.id);
  return flow;
}

/** Deletes a flow; its runs stay readable (GET runs/{executionId}) and runs in progress finish. */
export async function removeFlow(trx: Kysely<Database>, c: FlowCommand & { id: number }): Promise<void> {
  if (!(await deleteFlow(trx, c.guildId, c.id))) throw flowNotFound(c.guildId, c.id);
  await audit(trx, c, 'flows.delete', c.id);
}

/** A new webhook URL token for a webhook flow; the old URL stops working at once. */
export async function rotateFlowWebhookToken(trx: Kysely<Database>, c: FlowCommand & { id: number }): Promise<string> {
  const flow = await requireFlow(trx, c.guildId, c.id);
  if (flow.triggerType !== 'webhook') throw new FlowRefusal('NOT_A_WEBHOOK_FLOW', `Flow ${c.id} has a ${flow.triggerType} trigger, not a webhook one.`);
  const token = newWebhookToken();
  await setFlowWebhookToken(trx, c.guildId, c.id, hashWebhookToken(token), c.at);
  await audit(trx, c, 'flows.rotateWebhookToken', c.id);
  return token;
}
