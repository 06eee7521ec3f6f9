import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { insertEvent } from '../../db/shared/events.js';
import type { Database } from '../../db/schema.js';

/** What a receiver answers to the nth request (1-based) for one event: a status, or `hold` (no answer). */
export type Answer = (eventId: string, nth: number) => number | 'hold';

/**
 * A customer's receiver on loopback that answers per event (the body's `id`), counts what each event
 * received, and can hold requests unanswered, as a receiver does when the worker dies mid-attempt.
 */
export async function startEventReceiver(answer: Answer) {
  const received = new Map<string, number>();
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      const nth = (received.get(id) ?? 0) + 1;
      received.set(id, nth);
      const status = answer(id, nth);
      if (status === 'hold') held.push(res);
      else res.writeHead(status).end(`answer ${nth}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    held,
    total: () => [...received.values()].reduce((a, b) => a + b, 0),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `count` committed member events of the guild, each with its deliveries recorded at commit. */
export async function commitEvents(
  db: Kysely<Database>,
  guildId: string,
  count: number,
  createdAt = new Date(),
  type: 'members.joined' | 'members.left' = 'members.joined',
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const userId = `1000000000000000${String(i).padStart(3, '0')}`;
    const data =
      type === 'members.joined'
        ? { userId, username: null, bot: false, inviterId: null, inviteCode: null, joinedAt: createdAt.toISOString() }
        : { userId, username: null, reason: 'left', leftAt: createdAt.toISOString() };
    ids.push((await insertEvent(db, { type, guildId, createdAt, data })).id);
  }
  return ids;
}
