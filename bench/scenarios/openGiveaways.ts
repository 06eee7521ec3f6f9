import { sql } from 'kysely';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../db/giveaways/settings.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { systemClock } from '../../src/core/clock.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { launchOperation } from '../../src/core/temporal/operation.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { giveawayOperation } from '../../src/giveaways/giveawayOperation.js';
import { BENCH_GUILD_ID } from '../seed.js';
import type { ScenarioContext } from './context.js';

const IN_FLIGHT = 16;
const CHANNEL_ID = '1200000000000000222';

/**
 * Stores `count` giveaways as the start use case does and launches each one's workflow as the api does, 16 in
 * flight; `endsAt(i)` is asked just before the i-th is stored.
 */
export async function openGiveaways(ctx: ScenarioContext, gateway: TemporalGateway, count: number, endsAt: (i: number) => Date): Promise<void> {
  await upsertPlatformChannels(ctx.db, BENCH_GUILD_ID, [{ channelId: CHANNEL_ID, name: 'giveaways', type: 'text', position: 0 }]);
  let next = 0;
  const startOne = async () => {
    while (next < count) {
      const i = next++;
      const body = GiveawayStartRequest.parse({ channelId: CHANNEL_ID, prize: `Bench prize ${i}`, endsAt: endsAt(i).toISOString() });
      const g = await ctx.db.transaction().execute((trx) =>
        createGiveaway(trx, { guildId: BENCH_GUILD_ID, body, defaultHostId: '1200000000000000002', settings: DEFAULT_GIVEAWAY_SETTINGS, at: new Date(), actor: { type: 'system' } }),
      );
      await launchOperation({ db: ctx.db, temporal: gateway, clock: systemClock }, giveawayOperation, g);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, startOne));
}

/** Bench giveaways created since `since` that are posted, or ended. */
export async function countGiveawaysSince(ctx: ScenarioContext, since: Date, what: 'posted' | 'ended'): Promise<number> {
  const row = await ctx.db
    .selectFrom('giveaways')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('guild_id', '=', BENCH_GUILD_ID)
    .where('created_at', '>=', since)
    .where(what === 'posted' ? sql<boolean>`message_url is not null` : sql<boolean>`status = 'ended'`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ends spread evenly over `spreadS` seconds from `firstEndS` after `t0`, never closer than `minOpenS` to the giveaway's own start. */
export const spreadEnds =
  (t0: number, count: number, firstEndS: number, spreadS: number, minOpenS: number) =>
  (i: number): Date =>
    new Date(Math.max(t0 + (firstEndS + (i / count) * spreadS) * 1000, Date.now() + minOpenS * 1000));
