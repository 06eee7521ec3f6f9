import type { Kysely } from 'kysely';
import { findFlowByWebhookToken } from '../../db/flows/flows.js';
import type { FlowRunRecord } from '../../db/flows/runs.js';
import { findGuild } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { featureDisabled, flowNotFound, guildBlocked } from '../core/errors.js';
import { FEATURE_LABELS } from '../core/features.js';
import { admitWithinMinuteLimit } from '../requests/rateLimitWindows.js';
import { acceptFlowRun } from './acceptFlowRun.js';
import { hashWebhookToken } from './manageFlows.js';

/** Calls of one flow's URL per minute (fixed windows); more answer 429 RATE_LIMITED. */
export const FLOW_WEBHOOK_CALLS_PER_MINUTE = 60;
/** Largest body a webhook URL accepts (JSON). */
export const FLOW_WEBHOOK_BODY_LIMIT = 64 * 1024;
/** Request headers never passed to a run: credentials a caller may have attached by habit. */
const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export interface WebhookCall {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** The trigger data of a webhook run: what POST runs takes as `input` for a webhook flow. */
export function webhookInput(call: WebhookCall): { headers: Record<string, string>; query: Record<string, string>; body: unknown } {
  const flat = (record: WebhookCall['headers'], skip: Set<string> = new Set()) =>
    Object.fromEntries(
      Object.entries(record)
        .filter(([name, value]) => value !== undefined && !skip.has(name.toLowerCase()))
        .map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value!]),
    );
  return { headers: flat(call.headers, HIDDEN_HEADERS), query: flat(call.query), body: call.body ?? null };
}

/** The webhook flow a token names, with its server; 404 FLOW_NOT_FOUND for an unknown (or rotated) token. */
export async function findWebhookFlow(db: Kysely<Database>, token: string) {
  const flow = await findFlowByWebhookToken(db, hashWebhookToken(token));
  if (!flow || flow.triggerType !== 'webhook') throw flowNotFound();
  const guild = (await findGuild(db, flow.guildId))!;
  if (guild.blocked) throw guildBlocked();
  if (!guild.features.includes('flows')) throw featureDisabled(FEATURE_LABELS.flows);
  return { flow, guild };
}

/** Counts a call of the flow's URL in this minute's window; past FLOW_WEBHOOK_CALLS_PER_MINUTE, 429 RATE_LIMITED. */
export function admitWebhookCall(deps: { db: Kysely<Database>; clock: Clock }, target: { flow: { id: number } }): Promise<void> {
  const message = `This flow's URL takes ${FLOW_WEBHOOK_CALLS_PER_MINUTE} calls per minute.`;
  return admitWithinMinuteLimit(deps, `flow-hook:${target.flow.id}`, FLOW_WEBHOOK_CALLS_PER_MINUTE, message);
}

/** Accepts a run from a webhook URL call in the caller's transaction (quota and checks as POST runs). */
export async function acceptWebhookRun(
  trx: Kysely<Database>,
  target: Awaited<ReturnType<typeof findWebhookFlow>>,
  call: WebhookCall,
  at: Date,
): Promise<FlowRunRecord> {
  const { run } = await acceptFlowRun(trx, {
    guild: target.guild,
    flowId: target.flow.id,
    source: 'webhook',
    input: webhookInput(call),
    apiKeyId: null,
    actor: { type: 'system' },
    at,
  });
  return run;
}
