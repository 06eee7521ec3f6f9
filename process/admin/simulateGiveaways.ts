import { cancelGiveaway } from '../../src/giveaways/cancelGiveaway.js';
import { enterGiveaway } from '../../src/giveaways/enterGiveaway.js';
import { leaveGiveaway } from '../../src/giveaways/leaveGiveaway.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { snowflake, wholeNumber } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminCommand } from './command.js';
import { withEvents } from './eventOutput.js';
import { requireGuild } from './requireGuild.js';

// Giveaways as the bot sees them: members pressing the entry button (or leaving), and staff cancelling one.

const GIVEAWAY = {
  ...GUILD_FLAG,
  giveaway: { type: 'string', placeholder: 'N', required: true, help: 'the giveaway id' },
} as const;


export const giveawaySimulateCommands: AdminCommand[] = [
  defineCommand({
    name: 'giveaway-entry',
    summary: 'a member enters an active giveaway (requirements checked, entry cost debited), or leaves it with --leave (refunded)',
    flags: {
      ...GIVEAWAY,
      user: { type: 'string', placeholder: 'ID', required: true, help: "the member's user id" },
      leave: { type: 'boolean', help: 'leave instead of entering (the entry cost is refunded)' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const giveawayId = wholeNumber(flags.giveaway, 'giveaway', 1, 2_147_483_647);
      const userId = snowflake(flags.user, 'user');
      await requireGuild(ctx.db, guildId);
      const at = ctx.clock.now();
      const actor = operatorActor(ctx, flags.operator);
      if (flags.leave) {
        const { refunded, events } = await ctx.db.transaction().execute((trx) => leaveGiveaway(trx, { guildId, giveawayId, userId, at, actor }));
        return withEvents(ctx, events, { giveawayId, userId, left: true, refunded }, [`Member ${userId} left giveaway ${giveawayId}${refunded > 0 ? `; ${refunded} refunded` : ''}.`]);
      }
      // The member as the platform shows them now, looked up before the transaction (as the bot's button handler does).
      const member = await createLocalPlatform(ctx.db).getMember(guildId, userId);
      const entry = await ctx.db.transaction().execute((trx) => enterGiveaway(trx, { guildId, giveawayId, userId, member, at, actor }));
      return withEvents(ctx, entry.events, { giveawayId, userId, entered: entry.entered, tickets: entry.tickets, paid: entry.paid }, [
        entry.entered
          ? `Member ${userId} entered giveaway ${giveawayId} with ${entry.tickets} ticket${entry.tickets === 1 ? '' : 's'}${entry.paid > 0 ? `, paying ${entry.paid}` : ''}.`
          : `Member ${userId} had already entered giveaway ${giveawayId}; nothing changed.`,
      ]);
    },
  }),
  defineCommand({
    name: 'giveaway-cancel',
    summary: 'staff cancel a scheduled or active giveaway: every entry refunded; the worker then stops its workflow, which edits the message',
    flags: { ...GIVEAWAY, ...OPERATOR_FLAG },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const giveawayId = wholeNumber(flags.giveaway, 'giveaway', 1, 2_147_483_647);
      await requireGuild(ctx.db, guildId);
      const { refunds, events } = await ctx.db
        .transaction()
        .execute((trx) => cancelGiveaway(trx, { guildId, giveawayId, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }));
      return withEvents(ctx, events, { giveawayId, status: 'cancelled', refunds }, [
        `Giveaway ${giveawayId} cancelled; ${refunds.length} entr${refunds.length === 1 ? 'y' : 'ies'} refunded. The worker's cancel relay stops its workflow within seconds.`,
      ]);
    },
  }),
];
