export interface ConsoleFormSubmissionsTable {
  nonce_hash: Buffer;
  session_hash: Buffer;
  /** The page the POST answered; null while its change is still under way. */
  location: string | null;
  created_at: Date;
}

export interface ConsoleFlashesTable {
  session_hash: Buffer;
  /** The result page the flash is for (also the key derivation's salt and the cipher's associated data). */
  path: string;
  iv: Buffer;
  /** AES-256-GCM ciphertext followed by its 16-byte tag. */
  sealed: Buffer;
  expires_at: Date;
}
