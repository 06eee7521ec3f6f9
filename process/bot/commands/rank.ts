import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { readLevelMember } from '../../../src/levels/readLevels.js';
import type { BotCommand } from './command.js';
import { count, who } from './format.js';

/** `/rank [member]`: the level, the XP to the next one and the rank, as GET /levels/members/{userId} reads them. */
export const rankCommand: BotCommand = {
  definition: {
    name: 'rank',
    description: "Your level, the XP to the next level and your rank (or another member's)",
    options: [{ type: ApplicationCommandOptionType.User, name: 'member', description: 'The member to look up (default: you)' }],
  },
  feature: 'levels',
  async run({ deps, guildId, userId, options }) {
    const target = options.user('member')?.userId ?? userId;
    const m = await readLevelMember(deps.db, guildId, target);
    // A member who hid themselves from the leaderboards keeps their standing to themselves.
    if (m.hidden && target !== userId) return `<@${target}> keeps their rank private.`;
    const subject = who(target, userId);
    const verb = subject === 'You' ? 'are' : 'is';
    const rank = m.rank === null ? 'not ranked yet (no XP)' : `ranked #${count(m.rank)}`;
    return `${subject} ${verb} level ${m.level} with ${count(m.xp)} XP: ${count(m.xpForNext - m.xpIntoLevel)} XP to level ${m.level + 1}, ${rank}.`;
  },
};
