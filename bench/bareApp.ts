import Router from '@koa/router';
import Koa from 'koa';
import type { Kysely } from 'kysely';
import { findBalance, findBankSettings } from '../db/bank/accounts.js';
import type { Database } from '../db/schema.js';

/** The balance read with nothing around it: the baseline the full middleware chain is compared with. */
export function createBareApp(db: Kysely<Database>) {
  const router = new Router();
  router.get('/bare/guilds/:guildId/bank/members/:userId', async (ctx) => {
    const { guildId, userId } = ctx.params as { guildId: string; userId: string };
    const [balance, settings] = await Promise.all([findBalance(db, guildId, userId), findBankSettings(db, guildId)]);
    ctx.body = { userId, balance: balance ?? settings.startingBalance, currency: settings.currency };
  });
  const app = new Koa();
  app.use(router.routes());
  return app;
}
