import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { StoreRecord } from '../../../db/shop/stores.js';
import { readServerDirectory, type ServerDirectory } from '../../../src/console/serverDirectory.js';
import { STORE_DEFAULTS } from '../../../src/shop/catalogInput.js';
import { changeStore, createStore } from '../../../src/shop/manageCatalog.js';
import { readStoreItems, readStorePage, requireStore } from '../../../src/shop/readCatalog.js';
import type { AppDeps } from '../../context.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { FeatureOffPage } from '../views/featureOff.js';
import type { FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { StoreItemsPage } from '../views/shopItemPages.js';
import { shopPath, storeItemsPath } from '../views/shopParts.js';
import { StoreFormPage, StoresPage } from '../views/shopStorePages.js';
import { afterOf, SHOP_PAGE_SIZE, shopRecordId, shopServer } from './shopAccess.js';
import { storeChangesOf, storeFieldsOf } from './shopForms.js';

type StoreServer = { guild: GuildRecord; viewer: Viewer; directory: ServerDirectory };

/** The shop's stores (the admin CLI's `shop store-*`, src/shop/manageCatalog.ts) and each store's items. */
export function shopStoreRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/shop';
  const storeOf = async (ctx: ConsoleContext) => {
    const server = await shopServer(ctx, deps);
    return { ...server, store: await requireStore(deps.db, server.guild.id, shopRecordId(ctx, 'storeId')) };
  };
  const sendStoreForm = (ctx: ConsoleContext, server: StoreServer, store?: StoreRecord, form?: FormState) =>
    sendPage(ctx, StoreFormPage({ viewer: server.viewer, guild: server.guild, directory: server.directory, store, form }), form?.problem?.status);
  /** The server with its channels, which the store form's picker offers and its POST checks. */
  const withDirectory = async <S extends { guild: GuildRecord }>(server: S) => ({ ...server, directory: await readServerDirectory(deps.platform, server.guild.id) });

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('shop')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'shop', active: 'shop', title: 'Shop', then: 'shop' }));
    const after = afterOf(ctx);
    const page = await readStorePage(deps.db, guild.id, { after, limit: SHOP_PAGE_SIZE });
    const olderHref = page.nextCursor && `${shopPath(guild.id)}?after=${page.nextCursor}`;
    sendPage(ctx, StoresPage({ viewer, guild, stores: page.items, counts: page.counts, mainCount: after ? null : page.mainCount, olderHref }));
  });

  router.get(`${base}/stores/new`, async (ctx) => {
    sendStoreForm(ctx, await withDirectory(await shopServer(ctx, deps)));
  });

  /** A store form's POST: `change` does it; a problem renders the form again with it. Either way back to the stores. */
  async function submitStoreForm(ctx: ConsoleContext, server: StoreServer, store: StoreRecord | undefined, change: (form: URLSearchParams) => Promise<void>) {
    const form = formOf(ctx);
    const done = async () => {
      await change(form);
      return shopPath(server.guild.id);
    };
    await submitOnce(ctx, deps, done, async (problem) => sendStoreForm(ctx, server, store, { values: form, problem }));
  }

  router.post(`${base}/stores`, async (ctx) => {
    const server = await withDirectory(await shopServer(ctx, deps));
    await submitStoreForm(ctx, server, undefined, async (form) => {
      const fields = { ...STORE_DEFAULTS, ...storeFieldsOf(form, server.directory) };
      await deps.db.transaction().execute((trx) => createStore(trx, { guildId: server.guild.id, actor: server.actor, at: deps.clock.now(), fields }));
    });
  });

  router.get(`${base}/stores/main/items`, async (ctx) => {
    const { guild, viewer } = await shopServer(ctx, deps);
    await sendItems(ctx, guild, viewer, null);
  });

  router.get(`${base}/stores/:storeId/items`, async (ctx) => {
    const { guild, viewer, store } = await storeOf(ctx);
    await sendItems(ctx, guild, viewer, store.id);
  });

  async function sendItems(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, storeId: number | null) {
    const [page, directory] = await Promise.all([readStoreItems(deps.db, guild.id, storeId, { after: afterOf(ctx), limit: SHOP_PAGE_SIZE }), readServerDirectory(deps.platform, guild.id)]);
    const olderHref = page.nextCursor && `${storeItemsPath(guild.id, storeId)}?after=${page.nextCursor}`;
    sendPage(ctx, StoreItemsPage({ viewer, guild, store: page.store, items: page.items, currency: page.currency, directory, olderHref }));
  }

  router.get(`${base}/stores/:storeId`, async (ctx) => {
    const server = await withDirectory(await storeOf(ctx));
    sendStoreForm(ctx, server, server.store);
  });

  router.post(`${base}/stores/:storeId`, async (ctx) => {
    const server = await withDirectory(await storeOf(ctx));
    const { guild, actor, store } = server;
    await submitStoreForm(ctx, server, store, async (form) => {
      const fields = storeChangesOf(form, server.directory, store);
      // Saving the form unchanged writes no audit row.
      if (Object.keys(fields).length === 0) return;
      await deps.db.transaction().execute((trx) => changeStore(trx, { guildId: guild.id, actor, at: deps.clock.now(), storeId: store.id, fields }));
    });
  });
}
