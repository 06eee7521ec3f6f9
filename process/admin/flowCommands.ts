import { readFile } from 'node:fs/promises';
import type { FlowRecord } from '../../db/flows/flows.js';
import { listFlows } from '../../db/flows/flows.js';
import { findFlowRun } from '../../db/flows/runs.js';
import { writeAudit } from '../../db/shared/audit.js';
import { parseDefinitionText } from '../../src/flows/definitionText.js';
import { FlowRefusal } from '../../src/flows/flowDefinitionCheck.js';
import { toFlowBody } from '../../src/flows/flowViews.js';
import { flowRunWorkflowId } from '../../src/flows/ids.js';
import { changeFlowEnabled, createFlow, removeFlow, requireFlow, rotateFlowWebhookToken, updateFlow } from '../../src/flows/manageFlows.js';
import { FLOW_WEBHOOK_PATH } from '../../src/flows/webhookPath.js';
import { snowflake, type FlagSpec } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminContext, type CommandGroup } from './command.js';
import { AdminError, usageError } from './errors.js';
import { table } from './output.js';
import { requireGuild } from './requireGuild.js';

const ID = { id: { type: 'string', placeholder: 'FLOW_ID', required: true, help: 'the flow id (see `flow list`)' } } as const satisfies FlagSpec;
const FILE = { file: { type: 'string', placeholder: 'PATH', required: true, help: 'the definition, a JSON file (docs/flows.md)' } } as const satisfies FlagSpec;

function positiveId(value: string, flag: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
    throw usageError('INVALID_ARGUMENT', `--${flag} must be a positive integer, got "${value}".`);
  }
  return id;
}

async function readDefinition(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw usageError('INVALID_ARGUMENT', `Cannot read --file ${path}: ${(err as Error).message}`);
  }
  return parseDefinitionText(text, `--file ${path}`);
}

const command = (ctx: AdminContext, guildId: string, operator: string | undefined) => ({ guildId, actor: operatorActor(ctx, operator), at: ctx.clock.now() });
const hookPath = (token: string) => `${FLOW_WEBHOOK_PATH}/${token}`;

function saved(verb: string, flow: FlowRecord, token: string | null) {
  const json = { ...toFlowBody(flow), ...(token ? { webhookPath: hookPath(token) } : {}) };
  const text = [`${verb} flow ${flow.id} "${flow.name}" (v${flow.version}, ${flow.triggerType}${flow.triggerEvent ? ` ${flow.triggerEvent}` : ''}, ${flow.enabled ? 'enabled' : 'disabled'}).`];
  if (token) text.push(`  webhook URL  <api base>${hookPath(token)}`, 'The URL is shown only now; `flow rotate-token` issues a new one.');
  return { json, text };
}

const stateCommand = (name: 'enable' | 'disable') =>
  defineCommand({
    name,
    summary: `${name} a flow (only enabled flows run)`,
    flags: { ...GUILD_FLAG, ...ID, ...OPERATOR_FLAG },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const flow = await ctx.db.transaction().execute((trx) =>
        changeFlowEnabled(trx, { ...command(ctx, guildId, flags.operator), id: positiveId(flags.id, 'id'), enabled: name === 'enable' }),
      );
      return { json: toFlowBody(flow), text: [`Flow ${flow.id} ${name}d.`] };
    },
  });

/** Flows of a guild: definitions saved, enabled, deleted; runs cancelled; webhook URLs rotated. */
export const flowGroup: CommandGroup = {
  name: 'flow',
  summary: 'flows (automations) and their runs',
  commands: [
    defineCommand({
      name: 'create',
      summary: 'save a new flow from a definition file (disabled unless --enabled); a webhook flow prints its URL once',
      flags: { ...GUILD_FLAG, ...FILE, enabled: { type: 'boolean', help: 'enable it at once' }, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const definition = await readDefinition(flags.file);
        const { flow, webhookToken } = await ctx.db.transaction().execute((trx) => createFlow(trx, { ...command(ctx, guildId, flags.operator), definition, enabled: flags.enabled }));
        return saved('Created', flow, webhookToken);
      },
    }),
    defineCommand({
      name: 'update',
      summary: 'save a new version of a flow (runs in progress keep theirs)',
      flags: { ...GUILD_FLAG, ...ID, ...FILE, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const definition = await readDefinition(flags.file);
        const { flow, webhookToken } = await ctx.db
          .transaction()
          .execute((trx) => updateFlow(trx, { ...command(ctx, guildId, flags.operator), id: positiveId(flags.id, 'id'), definition }));
        return saved('Updated', flow, webhookToken);
      },
    }),
    stateCommand('enable'),
    stateCommand('disable'),
    defineCommand({
      name: 'delete',
      summary: 'delete a flow (its runs stay readable)',
      flags: { ...GUILD_FLAG, ...ID, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const id = positiveId(flags.id, 'id');
        await ctx.db.transaction().execute((trx) => removeFlow(trx, { ...command(ctx, guildId, flags.operator), id }));
        return { json: { id, deleted: true }, text: [`Flow ${id} deleted.`] };
      },
    }),
    defineCommand({
      name: 'list',
      summary: 'list the flows of a guild',
      flags: GUILD_FLAG,
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        await requireGuild(ctx.db, guildId);
        const items = (await listFlows(ctx.db, guildId)).map(toFlowBody);
        return {
          json: { items },
          text: table([['ID', 'STATE', 'TRIGGER', 'VERSION', 'NAME'], ...items.map((f) => [String(f.id), f.enabled ? 'enabled' : 'disabled', f.triggerEvent ?? f.triggerType ?? '-', String(f.version), f.name])]),
        };
      },
    }),
    defineCommand({
      name: 'show',
      summary: 'one flow with its definition',
      flags: { ...GUILD_FLAG, ...ID },
      async run(flags, ctx) {
        const flow = await requireFlow(ctx.db, snowflake(flags.guild, 'guild'), positiveId(flags.id, 'id'));
        const json = { ...toFlowBody(flow), definition: flow.definition };
        return { json, text: JSON.stringify(json, null, 2).split('\n') };
      },
    }),
    defineCommand({
      name: 'rotate-token',
      summary: "issue a new webhook URL for a webhook flow; the old one stops at once",
      flags: { ...GUILD_FLAG, ...ID, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const id = positiveId(flags.id, 'id');
        const token = await ctx.db.transaction().execute((trx) => rotateFlowWebhookToken(trx, { ...command(ctx, guildId, flags.operator), id }));
        return { json: { id, webhookPath: hookPath(token) }, text: [`Flow ${id} webhook URL: <api base>${hookPath(token)}`, 'Shown only now.'] };
      },
    }),
    defineCommand({
      name: 'cancel-run',
      summary: 'cancel a running flow run (it ends `cancelled`)',
      flags: { ...GUILD_FLAG, execution: { type: 'string', placeholder: 'EXECUTION_ID', required: true, help: 'the run (FlowRun.executionId)' }, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const executionId = positiveId(flags.execution, 'execution');
        const run = await findFlowRun(ctx.db, guildId, executionId);
        if (!run) throw new FlowRefusal('FLOW_RUN_NOT_FOUND', `Guild ${guildId} has no flow run ${executionId}.`);
        if (run.status !== 'running') throw new FlowRefusal('FLOW_RUN_NOT_RUNNING', `Flow run ${executionId} already ended ${run.status}.`);
        if (!ctx.temporal) throw new AdminError('TEMPORAL_UNAVAILABLE', 'No Temporal is configured (TEMPORAL_ADDRESS); the run cannot be cancelled.');
        await (await ctx.temporal()).client.workflow.getHandle(flowRunWorkflowId(guildId, executionId)).cancel();
        await writeAudit(ctx.db, { guildId, actor: operatorActor(ctx, flags.operator), action: 'flows.cancelRun', target: { type: 'flowRun', id: String(executionId) } });
        return { json: { executionId, cancelRequested: true }, text: [`Flow run ${executionId}: cancel requested; it ends \`cancelled\`.`] };
      },
    }),
  ],
};
