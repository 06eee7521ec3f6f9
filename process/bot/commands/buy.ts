import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { findGuild } from '../../../db/guild/guilds.js';
import { claimInteraction } from '../../../db/platform/interactions.js';
import { buyItem } from '../../../src/shop/buyItem.js';
import { shopItemNotFound } from '../../../src/shop/shopErrors.js';
import type { BotCommand, CommandUse } from './command.js';
import { money } from './format.js';
import { itemsOnSale } from './shop.js';
import { choiceOf } from './choices.js';

/** The item the option names: its id (what a suggestion sends), else an item on sale by its exact name. */
async function itemIdOf(use: CommandUse, typed: string): Promise<number> {
  if (/^\d{1,10}$/.test(typed)) return Number(typed);
  const { items } = await itemsOnSale(use.deps, use.guildId);
  const found = items.find((i) => i.name.toLowerCase() === typed.trim().toLowerCase());
  if (!found) throw shopItemNotFound();
  return found.id;
}

/**
 * `/buy item`: the purchase POST /shop/members/{userId}/purchases makes, for the invoker (stock, balance, required
 * roles and level, per-member limit, in one transaction). The item's role is given by the purchase's workflow, which
 * the worker's start relay starts within seconds.
 */
export const buyCommand: BotCommand = {
  definition: {
    name: 'buy',
    description: 'Buy an item from the shop with your balance',
    options: [{ type: ApplicationCommandOptionType.String, name: 'item', description: 'The item to buy', required: true, autocomplete: true, max_length: 100 }],
  },
  feature: 'shop',
  claimsItself: true,
  async run(use) {
    const { deps, guildId, userId, member } = use;
    const itemId = await itemIdOf(use, use.options.string('item') ?? '');
    const at = deps.clock.now();
    const bought = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimInteraction(trx, use.interactionId, guildId, at))) return null;
      const guild = await findGuild(trx, guildId);
      return buyItem(trx, {
        guildId,
        userId,
        itemId,
        roleIds: member.roleIds,
        bankEnabled: guild?.features.includes('bank') ?? false,
        reason: null,
        actor: { type: 'member', userId },
        at,
      });
    });
    if (!bought) return null;
    const { purchase, previousBalance, balance } = bought.result;
    const { currency } = await itemsOnSale(deps, guildId);
    const paid = previousBalance - balance;
    const cost = paid === 0 ? 'for free' : `for ${money(paid, currency)}; your balance is now ${money(balance, currency)}`;
    const role = purchase.roleId ? ` You get <@&${purchase.roleId}> within a few seconds.` : '';
    return `You bought **${purchase.item.name}** ${cost}.${role}`;
  },
  async complete({ deps, guildId }, typed) {
    const { items, currency } = await itemsOnSale(deps, guildId);
    const needle = typed.trim().toLowerCase();
    return items
      .filter((i) => i.name.toLowerCase().includes(needle))
      .map((i) => choiceOf(`${i.name} (${i.price === 0 ? 'free' : money(i.price, currency)})`, String(i.id)));
  },
};
