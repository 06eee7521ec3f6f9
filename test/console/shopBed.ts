import type { Kysely } from 'kysely';
import { DEFAULT_BANK_SETTINGS, saveBankSettings } from '../../db/bank/accounts.js';
import { upsertPlatformChannels, upsertPlatformRoles } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { createTestKey, snowflake } from '../harness/fixtures.js';
import type { TestApp } from '../harness/testApp.js';
import { consoleClient, managedGuild } from './consoleClient.js';

/** A managed server with the shop's currency, roles an item can give (VIP, Red) and a bot's managed role, and an API key. */
export async function shopGuild(db: Kysely<Database>) {
  const guild = await managedGuild(db, 'Shop Guild');
  const roles = { vip: snowflake(), red: snowflake(), botRole: snowflake() };
  await upsertPlatformRoles(db, guild.id, [
    { roleId: roles.vip, name: 'VIP', position: 1 },
    { roleId: roles.red, name: 'Red', position: 1 },
    { roleId: roles.botRole, name: 'Bot', position: 1, managed: true },
  ]);
  await saveBankSettings(db, guild.id, { ...DEFAULT_BANK_SETTINGS, currency: { name: 'gem', plural: 'gems', emoji: null } });
  const { key } = await createTestKey(db, guild, { scopes: ['shop:read', 'shop:write'] });
  return { ...guild, roles, key };
}

/** Everything a shop page's action may change: catalog, purchases, balances and ledger, events, audit rows. */
export async function shopState(db: Kysely<Database>, guildId: string) {
  return {
    stores: await db.selectFrom('shop_stores').selectAll().where('guild_id', '=', guildId).orderBy('id').execute(),
    items: await db.selectFrom('shop_items').selectAll().where('guild_id', '=', guildId).orderBy('id').execute(),
    purchases: await db.selectFrom('shop_purchases').select(['id', 'status', 'refunded_at', 'refunded_by']).where('guild_id', '=', guildId).orderBy('id').execute(),
    balances: await db.selectFrom('bank_accounts').select(['user_id', 'balance']).where('guild_id', '=', guildId).orderBy('user_id').execute(),
    ledger: await db.selectFrom('bank_ledger').select('id').where('guild_id', '=', guildId).execute(),
    events: await db.selectFrom('events').select('id').where('guild_id', '=', guildId).execute(),
    audit: await db.selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
  };
}

/** The channels a store's items page names, as shown. */
export const channelsShown = (html: string) => /<p data-store-channels="true">Channels: ([^<]*)<\/p>/.exec(html)?.[1];

/** The data-<attr> ids of a shop list's rows, in page order. */
export const idsOn = (html: string, attr: string) => [...html.matchAll(new RegExp(`data-${attr}="(\\w+)"`, 'g'))].map((m) => m[1]);
/** A list page's older link, unescaped, or undefined on its last page. */
export const olderOf = (html: string) => /href="([^"]+)" rel="next"/.exec(html)?.[1]?.replaceAll('&amp;', '&');

/** The shop console test files' setup on their app: a shop server with its manager signed in, its state and its shop audit rows. */
export function shopConsole(db: () => Kysely<Database>, app: TestApp) {
  async function signedIn() {
    const guild = await shopGuild(db());
    const client = consoleClient(app.baseUrl);
    await client.signIn(guild.managerId);
    return { guild, client, path: `/console/servers/${guild.id}/shop` };
  }
  /** signedIn, the server with text channels (#general, #news) and a voice channel a store cannot be shown in. */
  async function withChannels() {
    const signed = await signedIn();
    const ids = { general: snowflake(), news: snowflake(), voice: snowflake() };
    await upsertPlatformChannels(db(), signed.guild.id, [
      { channelId: ids.general, name: 'general', type: 'text', position: 1 },
      { channelId: ids.news, name: 'news', type: 'announcement', position: 2 },
      { channelId: ids.voice, name: 'Lounge', type: 'voice', position: 3 },
    ]);
    return { ...signed, ids };
  }
  const state = (guildId: string) => shopState(db(), guildId);
  const shopAudit = (guildId: string) =>
    db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'action', 'target_id', 'data']).where('guild_id', '=', guildId).where('action', 'like', 'shop.%').orderBy('id').execute();
  return { signedIn, withChannels, state, shopAudit };
}
