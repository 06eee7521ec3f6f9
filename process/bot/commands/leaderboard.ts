import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { readInviteLeaderboard } from '../../../src/invites/readInvites.js';
import { readLevelLeaderboard } from '../../../src/levels/readLevels.js';
import type { BotCommand } from './command.js';
import { count } from './format.js';

const PAGE_SIZE = 10;
/** The API's cursor stops at 10,000,000 rows. */
const MAX_PAGE = 1_000;

const board = (options: { string(name: string): string | undefined }) => (options.string('board') === 'invites' ? 'invites' : 'levels');

/** `/leaderboard [board] [page]`: a page of the levels board (or the invites board), as the API's leaderboards read. */
export const leaderboardCommand: BotCommand = {
  definition: {
    name: 'leaderboard',
    description: 'The top members by XP (or by invites), ten a page',
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'board',
        description: 'Which board (default: levels)',
        choices: [
          { name: 'Levels', value: 'levels' },
          { name: 'Invites', value: 'invites' },
        ],
      },
      { type: ApplicationCommandOptionType.Integer, name: 'page', description: 'The page (default: 1)', min_value: 1, max_value: MAX_PAGE },
    ],
  },
  feature: board,
  async run({ deps, guildId, options }) {
    const page = options.integer('page') ?? 1;
    const cursor = (page - 1) * PAGE_SIZE;
    const query = { cursor, limit: PAGE_SIZE };
    const { lines, total, title } =
      board(options) === 'invites'
        ? await readInviteLeaderboard(deps.db, guildId, { ...query, period: 'all' }).then((b) => ({
            title: 'Invites',
            total: b.total,
            lines: b.items.map((r) => `#${r.rank} <@${r.userId}>: ${count(r.invites)} invite${r.invites === 1 ? '' : 's'}`),
          }))
        : await readLevelLeaderboard(deps.db, guildId, query).then((b) => ({
            title: 'Levels',
            total: b.total,
            lines: b.items.map((r) => `#${r.rank} ${r.userId === null ? '(a hidden member)' : `<@${r.userId}>`}: level ${r.level}, ${count(r.xp)} XP`),
          }));
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    if (lines.length === 0) return total === 0 ? `Nobody is on the ${title.toLowerCase()} board yet.` : `There is no page ${page}: the board has ${pages}.`;
    return [`**${title} leaderboard**, page ${page} of ${pages}`, ...lines].join('\n');
  },
};
