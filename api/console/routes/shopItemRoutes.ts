import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { ShopItemRecord } from '../../../db/shop/items.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import { readServerDirectory } from '../../../src/console/serverDirectory.js';
import { changeItem, createItem } from '../../../src/shop/manageCatalog.js';
import { readItemForEdit, readStoreChoices } from '../../../src/shop/readCatalog.js';
import { ShopRefusal } from '../../../src/shop/shopRefusal.js';
import { updateShopItem } from '../../../src/shop/updateShopItem.js';
import type { AppDeps } from '../../context.js';
import { formOf } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import type { FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { ITEM_FIELDS } from '../views/shopItemForm.js';
import { DisableItemPage, ItemFormPage } from '../views/shopItemPages.js';
import { itemPath, storeItemsPath } from '../views/shopParts.js';
import { shopRecordId, shopServer } from './shopAccess.js';
import { itemChangesOf, itemFieldsOf, stockOf } from './shopForms.js';

/** The catalog's refusal of where an item goes (a store of another server), on the form's store field. */
function onTheItemForm(err: unknown): never {
  if (err instanceof ShopRefusal && err.code === 'STORE_NOT_FOUND') throw new FormRejection(422, err.code, [{ field: ITEM_FIELDS.store, message: 'Pick a store of this server.' }]);
  throw err;
}

/** The store a new item goes in, from `?store=main|<id>` (the link of the store's item list). */
function storeQueryOf(ctx: ConsoleContext): number | null {
  const raw = ctx.query.store;
  if (raw === undefined || raw === 'main') return null;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) throw new ConsoleRefusal('INVALID_INPUT', '`store` is main or a store id.');
  return Number(raw);
}

/**
 * Shop items: created and edited through the admin CLI's use case (src/shop/manageCatalog.ts), restocked and put
 * on or off sale through the API's PATCH use case (src/shop/updateShopItem.ts); taking one off sale asks first.
 */
export function shopItemRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/shop/items';
  const itemOf = async (ctx: ConsoleContext) => {
    const server = await shopServer(ctx, deps);
    return { ...server, item: await readItemForEdit(deps.db, server.guild.id, shopRecordId(ctx, 'itemId')) };
  };

  async function sendItemForm(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, page: { item?: ShopItemRecord; storeId: number | null; form?: FormState }) {
    const [directory, stores] = await Promise.all([readServerDirectory(deps.platform, guild.id), readStoreChoices(deps.db, guild.id)]);
    sendPage(ctx, ItemFormPage({ viewer, guild, directory, stores, ...page }), page.form?.problem?.status);
  }

  /** Turns the item on or off, or restocks it: the API's PATCH use case, the console user audited. */
  const patch = (guildId: string, item: ShopItemRecord, actor: Parameters<typeof updateShopItem>[1]['actor'], change: { enabled?: boolean; stock?: number | null }) =>
    deps.db.transaction().execute((trx) => updateShopItem(trx, { guildId, itemId: item.id, ...change, actor, at: deps.clock.now() }));

  router.get(`${base}/new`, async (ctx) => {
    const { guild, viewer } = await shopServer(ctx, deps);
    await sendItemForm(ctx, guild, viewer, { storeId: storeQueryOf(ctx) });
  });

  /** An item form's POST: `change` answers where to go; a problem renders the form (the item's page, or a new item's) again. */
  async function submitItemForm(ctx: ConsoleContext, server: { guild: GuildRecord; viewer: Viewer }, item: ShopItemRecord | undefined, change: (form: URLSearchParams) => Promise<string>) {
    const form = formOf(ctx);
    const again = { item, storeId: item?.storeId ?? null };
    await submitOnce(ctx, deps, () => change(form), (problem) => sendItemForm(ctx, server.guild, server.viewer, { ...again, form: { values: form, problem } }));
  }

  router.post(base, async (ctx) => {
    const server = await shopServer(ctx, deps);
    const { guild, actor } = server;
    await submitItemForm(ctx, server, undefined, async (form) => {
      const fields = itemFieldsOf(form, await readServerDirectory(deps.platform, guild.id));
      await deps.db.transaction().execute((trx) => createItem(trx, { guildId: guild.id, actor, at: deps.clock.now(), fields })).catch(onTheItemForm);
      return storeItemsPath(guild.id, fields.storeId);
    });
  });

  router.get(`${base}/:itemId`, async (ctx) => {
    const { guild, viewer, item } = await itemOf(ctx);
    await sendItemForm(ctx, guild, viewer, { item, storeId: item.storeId });
  });

  router.post(`${base}/:itemId`, async (ctx) => {
    const server = await itemOf(ctx);
    const { guild, actor, item } = server;
    await submitItemForm(ctx, server, item, async (form) => {
      const fields = itemChangesOf(form, await readServerDirectory(deps.platform, guild.id), item);
      // Saving the form unchanged writes no audit row.
      if (Object.keys(fields).length > 0) {
        await deps.db.transaction().execute((trx) => changeItem(trx, { guildId: guild.id, actor, at: deps.clock.now(), itemId: item.id, fields })).catch(onTheItemForm);
      }
      return storeItemsPath(guild.id, fields.storeId === undefined ? item.storeId : fields.storeId);
    });
  });

  router.post(`${base}/:itemId/stock`, async (ctx) => {
    const server = await itemOf(ctx);
    await submitItemForm(ctx, server, server.item, async (form) => {
      await patch(server.guild.id, server.item, server.actor, { stock: stockOf(form) });
      return itemPath(server.guild.id, server.item.id);
    });
  });

  router.get(`${base}/:itemId/disable`, async (ctx) => {
    const { guild, viewer, item } = await itemOf(ctx);
    sendPage(ctx, DisableItemPage({ viewer, guild, item }));
  });

  // Off sale (after its confirmation page) and back on sale: the same PATCH of `enabled`.
  for (const [verb, enabled] of [['disable', false], ['enable', true]] as const) {
    router.post(`${base}/:itemId/${verb}`, async (ctx) => {
      const { guild, actor, item } = await itemOf(ctx);
      await submitOnce(ctx, deps, async () => {
        await patch(guild.id, item, actor, { enabled });
        return itemPath(guild.id, item.id);
      });
    });
  }
}
