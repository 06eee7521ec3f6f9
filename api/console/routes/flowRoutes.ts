import { toFlowBody } from '../../../src/flows/flowViews.js';
import { changeFlowEnabled, removeFlow, requireFlow } from '../../../src/flows/manageFlows.js';
import { readFlowRunNodes, readFlowRunPage } from '../../../src/flows/readFlowRuns.js';
import { readFlowPage } from '../../../src/flows/readFlows.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { submitOnce, takeShownOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { FeatureOffPage } from '../views/featureOff.js';
import { ConfirmFlowPage, flowPath, FlowPage, FlowsPage, flowsPath } from '../views/flowPages.js';
import { FlowRunPage } from '../views/flowRunPage.js';
import { cursorOf } from './listQuery.js';

const PAGE_SIZE = 25;

/**
 * Flows: the list, a flow with its runs, one run node by node, enable / disable / delete (the admin CLI's use cases,
 * src/flows/manageFlows.ts, the console user as actor). The definition editor is flowDefinitionRoutes.ts.
 */
export function flowRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/flows';

  /** The server (the flows feature on) and the flow of the path, for every page and action on one flow. */
  async function flowOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'flows');
    const flow = toFlowBody(await requireFlow(deps.db, server.guild.id, idParam(ctx, 'flowId')));
    return { ...server, flow };
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('flows')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'flows', active: 'flows', title: 'Flows', then: 'flows' }));
    const page = await readFlowPage(deps.db, guild.id, { after: cursorOf(ctx, 'a flow id', 'after'), limit: PAGE_SIZE });
    sendPage(ctx, FlowsPage({ viewer, guild, flows: page.items, moreHref: page.nextCursor && `${flowsPath(guild.id)}?after=${page.nextCursor}` }));
  });

  // Before `:flowId`: "runs" is no flow id.
  router.get(`${base}/runs/:executionId`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    requireFeature(guild, 'flows');
    const detail = await readFlowRunNodes(deps, guild.id, idParam(ctx, 'executionId'));
    sendPage(ctx, FlowRunPage({ viewer, guild, ...detail }));
  });

  router.get(`${base}/:flowId`, async (ctx) => {
    const { guild, viewer, flow } = await flowOf(ctx);
    const page = await readFlowRunPage(deps.db, guild.id, flow.id, { before: cursorOf(ctx, 'a run id'), limit: PAGE_SIZE });
    const shown = await takeShownOnce(ctx, deps);
    const webhookPath = typeof shown?.webhookPath === 'string' ? shown.webhookPath : undefined;
    const olderHref = page.nextCursor && `${flowPath(guild.id, flow.id)}?before=${page.nextCursor}`;
    sendPage(ctx, FlowPage({ viewer, guild, flow: page.flow, runs: page.items, olderHref, webhookPath }));
  });

  for (const verb of ['disable', 'delete'] as const) {
    router.get(`${base}/:flowId/${verb}`, async (ctx) => {
      const { guild, viewer, flow } = await flowOf(ctx);
      sendPage(ctx, ConfirmFlowPage({ viewer, guild, flow, verb }));
    });
  }

  for (const enabled of [true, false]) {
    router.post(`${base}/:flowId/${enabled ? 'enable' : 'disable'}`, async (ctx) => {
      const { guild, actor, flow } = await flowOf(ctx);
      await submitOnce(ctx, deps, async () => {
        await deps.db.transaction().execute((trx) => changeFlowEnabled(trx, { guildId: guild.id, actor, at: deps.clock.now(), id: flow.id, enabled }));
        return flowPath(guild.id, flow.id);
      });
    });
  }

  router.post(`${base}/:flowId/delete`, async (ctx) => {
    const { guild, actor, flow } = await flowOf(ctx);
    await submitOnce(ctx, deps, async () => {
      await deps.db.transaction().execute((trx) => removeFlow(trx, { guildId: guild.id, actor, at: deps.clock.now(), id: flow.id }));
      return flowsPath(guild.id);
    });
  });
}
