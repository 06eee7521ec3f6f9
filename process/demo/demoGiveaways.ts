import type { Kysely } from 'kysely';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../db/giveaways/settings.js';
import type { Database } from '../../db/schema.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { runDraw } from '../../src/giveaways/drawGiveaway.js';
import { enterGiveaway } from '../../src/giveaways/enterGiveaway.js';
import { activeGiveawayMessage, giveawayMessageUrl } from '../../src/giveaways/giveawayMessages.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface DemoGiveawayPlaces {
  channel: string;
  host: string;
  vipRole: string;
  member(i: number): string;
}

/**
 * The demo server's giveaways, once: one scheduled (starts in two days), one active with entrants (VIPs hold
 * three tickets) and one ended with its draw. The worker's start relay starts the workflows of the first two.
 */
export async function seedDemoGiveaways(db: Kysely<Database>, guildId: string, p: DemoGiveawayPlaces, now: Date): Promise<void> {
  const existing = await db.selectFrom('giveaways').select('id').where('guild_id', '=', guildId).executeTakeFirst();
  if (existing) return;
  const platform = createLocalPlatform(db);
  const create = (prize: string, startsAt: Date, days: number, at: Date, winners = 1) => {
    const body = GiveawayStartRequest.parse({
      channelId: p.channel,
      prize,
      winners,
      startsAt: startsAt.toISOString(),
      durationSeconds: days * 86_400,
      requirements: { bonusRoles: [{ roleId: p.vipRole, entries: 3 }] },
    });
    return db
      .transaction()
      .execute((trx) => createGiveaway(trx, { guildId, body, defaultHostId: p.host, settings: DEFAULT_GIVEAWAY_SETTINGS, at, actor: { type: 'system' } }));
  };
  // Posted and open for entries, as the workflow leaves a giveaway once it started.
  const open = async (g: Awaited<ReturnType<typeof create>>, entrants: number, from: number) => {
    const message = activeGiveawayMessage(g);
    const messageId = await platform.postMessage(guildId, g.channelId, message.content, `giveaway-message/${guildId}/${g.id}`, message);
    await db
      .updateTable('giveaways')
      .set({ status: 'active', message_id: messageId, message_url: giveawayMessageUrl(guildId, g.channelId, messageId) })
      .where('guild_id', '=', guildId)
      .where('id', '=', g.id)
      .execute();
    for (let i = from; i < from + entrants; i++) {
      const userId = p.member(i);
      const member = await platform.getMember(guildId, userId);
      const at = new Date(g.startsAt.getTime() + (i - from + 1) * HOUR);
      await db.transaction().execute((trx) => enterGiveaway(trx, { guildId, giveawayId: g.id, userId, member, at, actor: { type: 'system' } }));
    }
  };

  const ended = await create('Steam gift card (50)', new Date(now.getTime() - 10 * DAY), 7, new Date(now.getTime() - 10 * DAY), 2);
  await open(ended, 20, 0);
  await runDraw(db, platform, { guildId, giveawayId: ended.id, drawNumber: 1, actor: null, at: ended.endsAt });
  // The ended giveaway's message edit, announcement and DMs happened before the demo began.
  await db.updateTable('giveaway_actions').set({ status: 'done', done_at: ended.endsAt }).where('guild_id', '=', guildId).where('giveaway_id', '=', ended.id).execute();
  await db.updateTable('giveaways').set({ workflow_started_at: ended.createdAt }).where('guild_id', '=', guildId).where('id', '=', ended.id).execute();

  const active = await create('Nitro (1 month)', new Date(now.getTime() - DAY), 4, new Date(now.getTime() - DAY));
  await open(active, 12, 10);
  await create('Custom role of your choice', new Date(now.getTime() + 2 * DAY), 7, now);
}
