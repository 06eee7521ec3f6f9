import { ConsoleRefusal } from '../../../src/console/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { AppError } from '../../../src/core/errors.js';
import { startFanoutsOrLeaveToRelay } from '../../../src/events/outbox.js';
import { PurchasesQuery, type PurchaseBody } from '../../../src/shop/contract.js';
import { purchaseRefundOperation, roleEffectsOf } from '../../../src/shop/purchaseOperations.js';
import { readPurchase, readPurchasePage } from '../../../src/shop/readShop.js';
import { refundPurchase } from '../../../src/shop/refundPurchase.js';
import type { AppDeps } from '../../context.js';
import { formOf } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { sendPage } from '../render.js';
import { PURCHASE_FILTERS, PurchasePage, PurchasesPage, RefundPage } from '../views/shopPurchasePages.js';
import { purchasePath, shopPath } from '../views/shopParts.js';
import { SHOP_PAGE_SIZE, shopRecordId, shopServer } from './shopAccess.js';
import { refundReasonOf } from './shopForms.js';

// A refund the use case refuses (already refunded meanwhile, the credit past the maximum balance) is said on its form.
const REFUSED_REFUNDS = new Set(['PURCHASE_ALREADY_REFUNDED', 'BALANCE_LIMIT']);

/** The list's query, read by the API's own schema: a status filter and the `before` cursor, else 400 INVALID_INPUT. */
function purchaseQueryOf(ctx: ConsoleContext) {
  const status = typeof ctx.query.status === 'string' && ctx.query.status !== '' ? ctx.query.status : undefined;
  const before = ctx.query.before;
  const parsed = PurchasesQuery.safeParse({ status, before, limit: String(SHOP_PAGE_SIZE) });
  if (!parsed.success) throw new ConsoleRefusal('INVALID_INPUT', `Status is one of ${PURCHASE_FILTERS.join(', ')}; \`before\` is a purchase number.`);
  return parsed.data;
}

const namesOf = (deps: AppDeps, guildId: string, purchases: PurchaseBody[]) =>
  memberNames(deps.memberCache, guildId, purchases.flatMap((p) => [p.userId, ...(p.refundedBy ? [p.refundedBy] : [])]));

/** Purchases, one purchase, and its refund: the API's refund use case, its role taken back by the same workflow. */
export function shopPurchaseRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/shop/purchases';
  const purchaseOf = async (ctx: ConsoleContext) => {
    const server = await shopServer(ctx, deps);
    const purchase = await readPurchase(deps.db, server.guild.id, shopRecordId(ctx, 'purchaseId'));
    return { ...server, purchase, names: await namesOf(deps, server.guild.id, [purchase]) };
  };

  router.get(base, async (ctx) => {
    const { guild, viewer } = await shopServer(ctx, deps);
    const query = purchaseQueryOf(ctx);
    const page = await readPurchasePage(deps.db, guild.id, query);
    const olderHref = page.nextCursor && `${shopPath(guild.id)}/purchases?${new URLSearchParams({ ...(query.status && { status: query.status }), before: page.nextCursor })}`;
    sendPage(ctx, PurchasesPage({ viewer, guild, status: query.status, purchases: page.items, names: await namesOf(deps, guild.id, page.items), olderHref }));
  });

  router.get(`${base}/:purchaseId`, async (ctx) => {
    const { guild, viewer, purchase, names } = await purchaseOf(ctx);
    sendPage(ctx, PurchasePage({ viewer, guild, purchase, names }));
  });

  router.get(`${base}/:purchaseId/refund`, async (ctx) => {
    const { guild, viewer, purchase, names } = await purchaseOf(ctx);
    sendPage(ctx, RefundPage({ viewer, guild, purchase, names }));
  });

  router.post(`${base}/:purchaseId/refund`, async (ctx) => {
    const { guild, viewer, actor, purchase, names } = await purchaseOf(ctx);
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const input = { guildId: guild.id, purchaseId: purchase.id, reason: refundReasonOf(form), actor, refundedBy: actor.userId, requestId: ctx.state.requestId, at: deps.clock.now() };
        const refunded = await deps.db
          .transaction()
          .execute((trx) => refundPurchase(trx, input))
          .catch((err: unknown) => {
            if (err instanceof AppError && REFUSED_REFUNDS.has(err.code)) throw new FormRejection(err.status, err.code, [{ message: err.message }]);
            throw err;
          });
        // After the commit, as the API's route: the events fan out and the bot takes the role back.
        await startFanoutsOrLeaveToRelay(deps, refunded.events);
        const effects = roleEffectsOf(refunded.purchase);
        if (effects) await launchAfterCommit(deps, purchaseRefundOperation, effects);
        return purchasePath(guild.id, purchase.id);
      },
      async (problem) => sendPage(ctx, RefundPage({ viewer, guild, purchase, names, form: { values: form, problem } }), problem.status),
    );
  });
}
