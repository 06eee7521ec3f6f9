export interface ConsoleSessionsTable {
  token_hash: Buffer;
  user_id: string;
  user_name: string;
  guild_ids: string[] | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

export interface ConsoleSignInsTable {
  state_hash: Buffer;
  code_verifier: string;
  browser_hash: Buffer | null;
  created_at: Date;
}
