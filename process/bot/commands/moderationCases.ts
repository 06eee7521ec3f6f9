import { ApplicationCommandOptionType, ApplicationCommandType, PermissionFlagsBits } from 'discord-api-types/v10';
import { ModCasesQuery } from '../../../src/moderation/contract.js';
import { readCaseDetail, readCasePage } from '../../../src/moderation/readModeration.js';
import type { BotCommand } from './command.js';
import { listAnswer } from './format.js';

/** Staff who may read cases: Discord's Moderate Members (Timeout Members in its client). */
const STAFF = { permission: PermissionFlagsBits.ModerateMembers, name: 'Timeout Members' };

type Case = { number: number; action: string; userId: string; moderatorId: string; reason: string | null; source: string; active: boolean; createdAt: string | null };

const when = (at: string | null) => (at ? ` <t:${Math.floor(Date.parse(at) / 1000)}:R>` : '');

function caseLine(c: Case): string {
  return `#${c.number} **${c.action}** of <@${c.userId}> by <@${c.moderatorId}>${when(c.createdAt)}: ${c.reason ?? 'no reason given'}${c.active ? ' (active)' : ''}`;
}

/** `/case number`: one moderation case, as GET /moderation/cases/{number} reads it. */
export const caseCommand: BotCommand = {
  definition: {
    name: 'case',
    description: 'Show a moderation case',
    options: [{ type: ApplicationCommandOptionType.Integer, name: 'number', description: 'The case number', required: true, min_value: 1, max_value: 999_999_999 }],
  },
  feature: 'moderation',
  requires: STAFF,
  async run({ deps, guildId, options }) {
    const c = await readCaseDetail(deps.db, guildId, options.integer('number')!);
    return `${caseLine(c)}\nSource: ${c.source}; ${c.events.length} event${c.events.length === 1 ? '' : 's'} in its timeline.`;
  },
};

/** The user context menu "Moderation history": the member's latest cases, as GET /moderation/cases?userId= lists them. */
export const moderationHistoryCommand: BotCommand = {
  definition: { type: ApplicationCommandType.User, name: 'Moderation history' },
  feature: 'moderation',
  requires: STAFF,
  async run({ deps, guildId, targetUser }) {
    const userId = targetUser!.userId;
    const page = await readCasePage(deps.db, guildId, ModCasesQuery.parse({ userId, limit: '10' }));
    if (page.items.length === 0) return `<@${userId}> has no moderation cases.`;
    const more = page.nextCursor === null ? '' : 'Older cases: `/case` with their number.';
    return listAnswer(`**Moderation history of <@${userId}>** (newest first)`, page.items.map(caseLine), more);
  },
};
