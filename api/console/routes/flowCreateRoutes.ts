import { createFlow } from '../../../src/flows/manageFlows.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { sendPage } from '../render.js';
import { flowPath } from '../views/flowPages.js';
import { FLOW_ENABLED_FIELD, NewFlowPage, STARTER_DEFINITION } from '../views/flowNewPage.js';
import { definitionForm, submitDefinition } from './flowDefinitionForm.js';

/**
 * A new flow from the console: the definition in the flow editor and enabled or not, saved through the admin CLI's
 * use case (createFlow, as `flow create --file … [--enabled]`: the same rules, the console user as actor). Flows have
 * no count limit per plan (only their runs per day), so nothing else refuses it. Registered before flowRoutes, whose
 * `/flows/:flowId` would take "new" for a flow id.
 */
export function flowCreateRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const path = '/servers/:guildId/flows/new';

  async function server(ctx: ConsoleContext) {
    const found = await managedServer(ctx, deps);
    requireFeature(found.guild, 'flows');
    return found;
  }

  router.get(path, async (ctx) => {
    const { guild, viewer } = await server(ctx);
    sendPage(ctx, NewFlowPage({ viewer, guild, form: definitionForm(STARTER_DEFINITION), enabled: false }));
  });

  router.post(path, async (ctx) => {
    const { guild, viewer, actor } = await server(ctx);
    const form = formOf(ctx);
    const enabled = form.get(FLOW_ENABLED_FIELD) === 'on';
    await submitDefinition(
      ctx,
      deps,
      form.get('definition') ?? '',
      async (definition) => {
        const { flow, webhookToken } = await deps.db.transaction().execute((trx) => createFlow(trx, { guildId: guild.id, actor, at: deps.clock.now(), definition, enabled }));
        return { to: flowPath(guild.id, flow.id), webhookToken };
      },
      async (kept) => sendPage(ctx, NewFlowPage({ viewer, guild, form: kept, enabled }), kept.problem?.status),
    );
  });
}
