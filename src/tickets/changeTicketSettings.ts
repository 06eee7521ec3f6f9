import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { findTicketSettings, setTicketLogChannel, setTicketTranscripts } from '../../db/tickets/closes.js';

export interface TicketSettingsChange {
  guildId: string;
  /** The channel where ticket closes are logged; null: no log line; undefined: unchanged. */
  logChannelId?: string | null;
  /** Whether transcripts are saved at close; undefined: unchanged. */
  transcripts?: boolean;
  actor: AuditActor;
}

export type TicketSettings = Awaited<ReturnType<typeof findTicketSettings>>;

/**
 * Staff change a server's ticket settings (the console's Tickets page), in the caller's transaction, with an audit
 * row holding what was before and after. Nothing asked to change: the settings as they are, and no audit row.
 */
export async function changeTicketSettings(trx: Kysely<Database>, c: TicketSettingsChange): Promise<TicketSettings> {
  const before = await findTicketSettings(trx, c.guildId);
  if (c.logChannelId === undefined && c.transcripts === undefined) return before;
  if (c.logChannelId !== undefined) await setTicketLogChannel(trx, c.guildId, c.logChannelId);
  if (c.transcripts !== undefined) await setTicketTranscripts(trx, c.guildId, c.transcripts);
  const after: TicketSettings = {
    ...before,
    ...(c.logChannelId !== undefined && { logChannelId: c.logChannelId }),
    ...(c.transcripts !== undefined && { transcripts: c.transcripts }),
  };
  await writeAudit(trx, { guildId: c.guildId, actor: c.actor, action: 'tickets.settings', data: { before, after } });
  return after;
}
