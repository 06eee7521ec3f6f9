import { issuesByNode, type IssuesByNode } from '../../../src/flows/definitionIssues.js';
import { parseDefinitionText } from '../../../src/flows/definitionText.js';
import { FlowRefusal } from '../../../src/flows/flowDefinitionCheck.js';
import { toFlowBody } from '../../../src/flows/flowViews.js';
import { requireFlow, updateFlow } from '../../../src/flows/manageFlows.js';
import { FLOW_WEBHOOK_PATH } from '../../../src/flows/webhookPath.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, showOnceAt, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { DEFINITION_FIELD, FlowDefinitionPage, nodeField } from '../views/flowDefinitionPage.js';
import { flowPath } from '../views/flowPages.js';
import type { FieldError } from '../views/formParts.js';

/** Parsed for the node list only: text that is not JSON lists no node (its error is on the textarea). */
const inputOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** A refused definition's issues as the form's errors: each on its node (linked from the summary) or on the textarea. */
function errorsOf(laid: IssuesByNode): FieldError[] {
  return [
    ...laid.flow.map((message) => ({ field: DEFINITION_FIELD, message })),
    ...laid.nodes.flatMap((n) => n.issues.map((message) => ({ field: nodeField(n.id), message: `Node "${n.id}": ${message}` }))),
  ];
}

/**
 * A flow's definition edited as JSON and saved through the admin CLI's use case (updateFlow: the same rules as
 * `flow update`, a new version, the console user as actor). A refused definition comes back as sent, each issue
 * beside the node it concerns, and changes nothing.
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
    const text = JSON.stringify(flow.definition, null, 2);
    sendPage(ctx, FlowDefinitionPage({ viewer, guild, flow: toFlowBody(flow), form: { text, laid: issuesByNode(flow.definition, []) } }));
  });

  router.post(path, async (ctx) => {
    const { guild, viewer, actor, flow } = await flowOf(ctx);
    const text = formOf(ctx).get('definition') ?? '';
    // The refused definition's issues by node, for the form shown again.
    let laid: IssuesByNode = issuesByNode(inputOf(text), []);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const saved = await deps.db
          .transaction()
          .execute(async (trx) => updateFlow(trx, { guildId: guild.id, actor, at: deps.clock.now(), id: flow.id, definition: parseDefinitionText(text, 'The definition') }))
          .catch((err: unknown) => {
            if (!(err instanceof FlowRefusal) || err.code !== 'INVALID_DEFINITION') throw err;
            laid = issuesByNode(inputOf(text), err.issues);
            throw new FormRejection(422, err.code, errorsOf(laid));
          });
        const to = flowPath(guild.id, flow.id);
        // A flow that became a webhook flow has a new URL, shown once like the CLI's `flow update` prints it.
        return saved.webhookToken ? showOnceAt(ctx, deps, to, { webhookPath: `${FLOW_WEBHOOK_PATH}/${saved.webhookToken}` }) : to;
      },
      async (problem) => sendPage(ctx, FlowDefinitionPage({ viewer, guild, flow: toFlowBody(flow), form: { text, laid, problem } }), problem.status),
    );
  });
}
