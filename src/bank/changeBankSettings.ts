import type { Kysely } from 'kysely';
import { findBankSettings, saveBankSettings, type BankSettings } from '../../db/bank/accounts.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { Platform } from '../core/platform.js';
import { Refusal } from '../core/refusal.js';
import { MAX_BANK_AMOUNT } from './contract.js';

export class BankSettingsRefusal extends Refusal<'INVALID_CURRENCY' | 'INVALID_BALANCE' | 'INVALID_CHANNEL'> {
  constructor(
    code: BankSettingsRefusal['code'],
    /** The setting the refusal is about, so a form can put it on its field. */
    readonly setting: 'name' | 'plural' | 'emoji' | 'startingBalance' | 'maxBalance' | 'logChannelId',
    message: string,
  ) {
    super(code, message);
  }
}

export const CURRENCY_NAME_MAX = 32;
/** Room for a custom emoji's `<:name:id>` as well as a Unicode one. */
export const CURRENCY_EMOJI_MAX = 64;

export interface BankSettingsChange {
  guildId: string;
  settings: BankSettings;
  actor: AuditActor;
}

/** Channels a member can read the bank log in, as the levels announcement posts in. */
const POSTABLE = new Set(['text', 'announcement']);

async function check(platform: Platform, guildId: string, s: BankSettings): Promise<void> {
  for (const setting of ['name', 'plural'] as const) {
    const text = s.currency[setting];
    if (text.trim() === '' || text.length > CURRENCY_NAME_MAX) {
      throw new BankSettingsRefusal('INVALID_CURRENCY', setting, `The currency's ${setting} is 1 to ${CURRENCY_NAME_MAX} characters.`);
    }
  }
  if (s.currency.emoji !== null && (s.currency.emoji.trim() === '' || s.currency.emoji.length > CURRENCY_EMOJI_MAX)) {
    throw new BankSettingsRefusal('INVALID_CURRENCY', 'emoji', `The emoji is at most ${CURRENCY_EMOJI_MAX} characters, or none.`);
  }
  if (!Number.isSafeInteger(s.startingBalance) || s.startingBalance < 0 || s.startingBalance > MAX_BANK_AMOUNT) {
    throw new BankSettingsRefusal('INVALID_BALANCE', 'startingBalance', `The starting balance is a whole number from 0 to ${MAX_BANK_AMOUNT.toLocaleString('en-US')}.`);
  }
  // The ceiling moveBalance applies without a maximum: a balance stays within what JSON numbers carry exactly.
  if (s.maxBalance !== null && (!Number.isSafeInteger(s.maxBalance) || s.maxBalance < Math.max(1, s.startingBalance))) {
    throw new BankSettingsRefusal('INVALID_BALANCE', 'maxBalance', 'The maximum balance is a whole number at least the starting balance (and at least 1), or none.');
  }
  if (s.logChannelId !== null) {
    const channel = (await platform.listChannels(guildId)).find((c) => c.id === s.logChannelId);
    if (!channel || !POSTABLE.has(channel.type)) {
      throw new BankSettingsRefusal('INVALID_CHANNEL', 'logChannelId', `${s.logChannelId} is not a text or announcement channel of the server.`);
    }
  }
}

const same = (a: BankSettings, b: BankSettings) =>
  a.currency.name === b.currency.name &&
  a.currency.plural === b.currency.plural &&
  a.currency.emoji === b.currency.emoji &&
  a.startingBalance === b.startingBalance &&
  a.maxBalance === b.maxBalance &&
  a.logChannelId === b.logChannelId;

/**
 * Staff set the server's bank: its currency (name, plural, emoji), the starting balance a member's first change opens
 * the account with, the maximum balance (BALANCE_LIMIT above it) and the bank log channel, in the caller's
 * transaction with a `bank.settings` audit row holding before and after. A refused change changes nothing; settings
 * sent as they are write nothing. Balances already above a lowered maximum stay: only changes are refused.
 */
export async function changeBankSettings(trx: Kysely<Database>, platform: Platform, c: BankSettingsChange): Promise<BankSettings> {
  const before = await findBankSettings(trx, c.guildId);
  if (same(before, c.settings)) return before;
  await check(platform, c.guildId, c.settings);
  await saveBankSettings(trx, c.guildId, c.settings);
  await writeAudit(trx, { guildId: c.guildId, actor: c.actor, action: 'bank.settings', data: { before, after: c.settings } });
  return c.settings;
}
