import type { Generated } from 'kysely';

export interface BankSettingsTable {
  guild_id: string;
  currency_name: string;
  currency_plural: string;
  currency_emoji: string | null;
  starting_balance: number;
  max_balance: number | null;
  log_channel_id: string | null;
}

export interface BankAccountsTable {
  guild_id: string;
  user_id: string;
  balance: number;
  updated_at: Date;
}

export interface BankLedgerTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  type: string;
  amount: number;
  balance_after: number;
  reason: string | null;
  counterparty_id: string | null;
  actor_id: string | null;
  api_key_id: number | null;
  created_at: Date;
}
