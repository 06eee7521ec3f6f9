import type { Kysely } from 'kysely';
import { saveBankSettings, DEFAULT_BANK_SETTINGS, type BankSettings } from '../../db/bank/accounts.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { snowflake } from '../harness/fixtures.js';
import { consoleClient, consoleUserAudit, managedGuild } from './consoleClient.js';

/**
 * The bank pages' bed, shared by bankSettings.test.ts and bankAdjustments.test.ts: a managed server with the bank on
 * (or the features given), a text and a voice channel, optionally its bank settings (in gems), its manager signed in;
 * and what the bank's actions write.
 */
export function bankBed(db: () => Kysely<Database>, app: { baseUrl: string }) {
  async function signedIn(options: { features?: string[]; settings?: Partial<BankSettings> } = {}) {
    const guild = await managedGuild(db(), 'Bank Guild');
    await db().updateTable('guilds').set({ features: options.features ?? ['bank'] }).where('id', '=', guild.id).execute();
    const log = snowflake();
    const voice = snowflake();
    await upsertPlatformChannels(db(), guild.id, [
      { channelId: log, name: 'bank-log', type: 'text', position: 1 },
      { channelId: voice, name: 'Lounge', type: 'voice', position: 2 },
    ]);
    if (options.settings) await saveBankSettings(db(), guild.id, { ...DEFAULT_BANK_SETTINGS, currency: { name: 'gem', plural: 'gems', emoji: '💎' }, ...options.settings });
    const client = consoleClient(app.baseUrl);
    await client.signIn(guild.managerId);
    const s = `/console/servers/${guild.id}/bank`;
    return { guild, client, log, voice, s };
  }

  const accounts = (guildId: string) => db().selectFrom('bank_accounts').select(['user_id', 'balance']).where('guild_id', '=', guildId).orderBy('user_id').execute();
  const ledger = (guildId: string) =>
    db().selectFrom('bank_ledger').select(['user_id', 'type', 'amount', 'balance_after', 'reason', 'actor_id', 'api_key_id']).where('guild_id', '=', guildId).orderBy('id').execute();
  const consoleAudit = (guildId: string) => consoleUserAudit(db(), guildId);
  const settingsRows = (guildId: string) => db().selectFrom('bank_settings').selectAll().where('guild_id', '=', guildId).execute();
  /** Everything an adjustment or a settings change writes. */
  const snapshot = async (guildId: string) => ({
    accounts: await accounts(guildId),
    ledger: await ledger(guildId),
    audit: await consoleAudit(guildId),
    settings: await settingsRows(guildId),
    events: await db().selectFrom('events').select('id').where('guild_id', '=', guildId).execute(),
  });

  return { signedIn, accounts, ledger, consoleAudit, settingsRows, snapshot };
}
