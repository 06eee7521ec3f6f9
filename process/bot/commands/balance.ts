import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { readBalance } from '../../../src/bank/readBank.js';
import type { BotCommand } from './command.js';
import { money, who } from './format.js';

/** `/balance [member]`: the bank balance GET /bank/members/{userId} reads (the starting balance without an account). */
export const balanceCommand: BotCommand = {
  definition: {
    name: 'balance',
    description: "Your bank balance (or another member's)",
    options: [{ type: ApplicationCommandOptionType.User, name: 'member', description: 'The member to look up (default: you)' }],
  },
  feature: 'bank',
  async run({ deps, guildId, userId, options }) {
    const target = options.user('member')?.userId ?? userId;
    const b = await readBalance(deps.db, guildId, target);
    const subject = who(target, userId);
    return `${subject} ${subject === 'You' ? 'have' : 'has'} ${money(b.balance, b.currency)}.`;
  },
};
