import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FakeGateway } from '../../process/infra/fakeDiscord/index.js';
import { eventually } from '../harness/eventually.js';
import type { BotBed } from './botHarness.js';

// The MESSAGE_CREATEs a restart test sends, and how many times the database counted them.

type Message = { id: string; guild_id: string; author: { id: string } };

export interface MessageLedger {
  /** Sends it from the fake gateway (to the bot, or kept for the session's replay); returns its sequence. */
  send(m: Message): number;
  /** Sends it through the bed and waits until the bot handled it. */
  handled(bed: BotBed, m: Message): Promise<number>;
  ids(): string[];
  /** Resolves once `n` of the messages sent (all by default) are claimed (counted) in the database; then returns the counts. */
  allCounted(db: Kysely<Database>, n?: number): Promise<Counts>;
}

/** `claims`: the messages claimed once each in level_counted_messages; `<guild>/<user>`: messages that earned XP. */
export type Counts = Record<string, number>;

export function messageLedger(gateway: FakeGateway): MessageLedger {
  const sent: Message[] = [];
  const ids = () => sent.map((m) => m.id);
  return {
    send(m) {
      sent.push(m);
      return gateway.dispatch('MESSAGE_CREATE', m);
    },
    async handled(bed, m) {
      sent.push(m);
      return bed.dispatch('MESSAGE_CREATE', m);
    },
    ids,
    allCounted: (db, n) => eventually(() => counts(db, sent), (c) => c.claims === (n ?? sent.length)),
  };
}

async function counts(db: Kysely<Database>, sent: Message[]): Promise<Counts> {
  const claims = await db.selectFrom('level_counted_messages').select('message_id').where('message_id', 'in', sent.map((m) => m.id)).execute();
  const result: Counts = { claims: claims.length };
  for (const key of new Set(sent.map((m) => `${m.guild_id}/${m.author.id}`))) {
    const [guildId, userId] = key.split('/') as [string, string];
    const row = await db.selectFrom('level_members').select('messages').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
    result[key] = row?.messages ?? 0;
  }
  return result;
}
