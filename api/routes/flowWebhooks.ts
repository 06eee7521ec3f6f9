import type Koa from 'koa';
import { launchOperation } from '../../src/core/temporal/operation.js';
import { flowRunOperation } from '../../src/flows/flowRunOperation.js';
import { toFlowRunBody } from '../../src/flows/flowViews.js';
import { FLOW_WEBHOOK_PATH } from '../../src/flows/webhookPath.js';
import { acceptWebhookRun, admitWebhookCall, FLOW_WEBHOOK_BODY_LIMIT, findWebhookFlow } from '../../src/flows/webhookTrigger.js';
import type { AppContext, AppDeps, RequestState } from '../context.js';
import { jsonBody } from '../middleware/jsonBody.js';

const TOKEN_PATH = new RegExp(`^${FLOW_WEBHOOK_PATH}/(fwh_[A-Za-z0-9_-]{43})$`);

/**
 * The public URL of webhook flows, `POST /hooks/flows/<token>`: no API key (the unguessable token is the
 * credential), a JSON body of at most 64 KiB, 60 calls per minute per flow, the server's daily run quota; answers
 * 202 with the run (its executionId). Outside the API root and its OpenAPI document: it is a URL an operator
 * hands out, not an endpoint of the API (docs/flows.md).
 */
export function flowWebhooks(deps: AppDeps): Koa.Middleware<RequestState> {
  const body = jsonBody(FLOW_WEBHOOK_BODY_LIMIT);
  return async (ctx: AppContext, next) => {
    const token = ctx.method === 'POST' ? TOKEN_PATH.exec(ctx.path)?.[1] : undefined;
    // Anything else (another method, a malformed token) is no route of ours: the fallback answers 404 or 405.
    if (token === undefined) return next();
    const target = await findWebhookFlow(deps.db, token);
    await admitWebhookCall(deps, target);
    await body(ctx, async () => {});
    const call = { headers: ctx.headers, query: ctx.query, body: ctx.state.body };
    const run = await deps.db.transaction().execute((trx) => acceptWebhookRun(trx, target, call, deps.clock.now()));
    // Accepted like every asynchronous write: answered at once (polling reads the committed run until its workflow
    // exists), started once the answer is out; a lost start is the start relay's.
    ctx.res.once('finish', () => {
      launchOperation(deps, flowRunOperation, run).catch((err: unknown) => deps.logger.warn({ err }, 'flow run start failed; the start relay retries it'));
    });
    ctx.status = 202;
    ctx.body = toFlowRunBody(run);
  };
}
