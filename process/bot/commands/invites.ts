import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { readInviteMember } from '../../../src/invites/readInvites.js';
import type { BotCommand } from './command.js';
import { count, who } from './format.js';

/** `/invites [member]`: the counts and rank GET /invites/members/{userId} reads. */
export const invitesCommand: BotCommand = {
  definition: {
    name: 'invites',
    description: "How many members you invited (or another member did), and the rank",
    options: [{ type: ApplicationCommandOptionType.User, name: 'member', description: 'The member to look up (default: you)' }],
  },
  feature: 'invites',
  async run({ deps, guildId, userId, options }) {
    const target = options.user('member')?.userId ?? userId;
    const m = await readInviteMember(deps.db, guildId, target);
    const subject = who(target, userId);
    const rank = m.rank === null ? 'not ranked yet' : `ranked #${count(m.rank)}`;
    const detail = `${count(m.verified)} verified, ${count(m.bonus)} bonus, ${count(m.pending)} pending, ${count(m.left)} left, ${count(m.fake)} fake`;
    return `${subject} ${subject === 'You' ? 'have' : 'has'} ${count(m.invites)} invite${m.invites === 1 ? '' : 's'} (${detail}), ${rank}.`;
  },
};
