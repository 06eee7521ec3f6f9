import { toFlowBody } from '../../../src/flows/flowViews.js';
import { requireFlow, updateFlow } from '../../../src/flows/manageFlows.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { sendPage } from '../render.js';
import { FlowDefinitionPage } from '../views/flowDefinitionPage.js';
import { flowPath } from '../views/flowPages.js';
import { definitionForm, submitDefinition } from './flowDefinitionForm.js';

/**
 * A flow's definition edited as JSON and saved through the admin CLI's use case (updateFlow: the same rules as
 * `flow update`, a new version, the console user as actor). A refused definition comes back as sent, each issue
 * beside the node it concerns, and changes nothing. A flow that became a webhook flow shows its new URL once.
 */
export function flowDefinitionRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const path = '/servers/:guildId/flows/:flowId/definition';

  async function flowOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'flows');
    return { ...server, flow: await requireFlow(deps.db, server.guild.id, idParam(ctx, 'flowId')) };
  }

  router.get(path, async (ctx) => {
    const { guild, viewer, flow } = await flowOf(ctx);
    sendPage(ctx, FlowDefinitionPage({ viewer, guild, flow: toFlowBody(flow), form: definitionForm(flow.definition) }));
  });

  router.post(path, async (ctx) => {
    const { guild, viewer, actor, flow } = await flowOf(ctx);
    await submitDefinition(
      ctx,
      deps,
      formOf(ctx).get('definition') ?? '',
      async (definition) => {
        const saved = await deps.db.transaction().execute((trx) => updateFlow(trx, { guildId: guild.id, actor, at: deps.clock.now(), id: flow.id, definition }));
        return { to: flowPath(guild.id, flow.id), webhookToken: saved.webhookToken };
      },
      async (form) => sendPage(ctx, FlowDefinitionPage({ viewer, guild, flow: toFlowBody(flow), form }), form.problem?.status),
    );
  });
}
