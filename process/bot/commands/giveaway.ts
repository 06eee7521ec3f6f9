import { ApplicationCommandOptionType as O, ChannelType, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { claimInteraction } from '../../../db/platform/interactions.js';
import { GiveawayStartRequest } from '../../../src/giveaways/contract.js';
import { checkGiveawayStart, createGiveaway } from '../../../src/giveaways/createGiveaway.js';
import { giveawayOperation } from '../../../src/giveaways/giveawayOperation.js';
import { MAX_DURATION_SECONDS, MIN_DURATION_SECONDS } from '../../../src/giveaways/giveawayRules.js';
import type { BotCommand, CommandUse } from './command.js';
import { durationWords, parseDuration } from './duration.js';
import { openGiveaways, giveawayDraw, giveawayIdOf } from './giveawayDraws.js';
import { launchAfterCommit } from './launch.js';
import { validated } from './validated.js';
import { choiceOf } from './choices.js';

const GIVEAWAY = { type: O.String, name: 'giveaway', description: 'The giveaway (its number or prize)', required: true, autocomplete: true, max_length: 200 } as const;

const startWords = (path: string) =>
  path === 'durationSeconds'
    ? `A giveaway lasts ${durationWords(MIN_DURATION_SECONDS)} to ${MAX_DURATION_SECONDS / 86_400} days.`
    : path === 'prize' || path === 'description'
      ? `The ${path} must be ordinary text (the prize 1 to 200 characters, the description up to 1,000).`
      : 'That giveaway is not valid.';

/**
 * `/giveaway start`: the giveaway POST /giveaways creates, hosted by the invoker, in the caller's channel option;
 * its workflow posts the message at once (started here, or by the worker's start relay while Temporal is out).
 */
async function start(use: CommandUse): Promise<string | null> {
  const { deps, guildId, options } = use;
  const durationSeconds = parseDuration(options.string('duration') ?? '', '30m, 1d or 1w');
  const body = validated(
    GiveawayStartRequest,
    {
      channelId: options.string('channel'),
      prize: options.string('prize'),
      description: options.string('description') ?? null,
      winners: options.integer('winners') ?? 1,
      durationSeconds,
      hostId: use.userId,
    },
    startWords,
  );
  await checkGiveawayStart(deps.platform, guildId, body, deps.clock.now());
  const at = deps.clock.now();
  const giveaway = await deps.db.transaction().execute(async (trx) => {
    if (!(await claimInteraction(trx, use.interactionId, guildId, at))) return null;
    return createGiveaway(trx, { guildId, body, defaultHostId: use.userId, at, actor: { type: 'member', userId: use.userId } });
  });
  if (!giveaway) return null;
  await launchAfterCommit(deps, giveawayOperation, giveaway);
  const winners = giveaway.winnersCount === 1 ? '1 winner' : `${giveaway.winnersCount} winners`;
  return `Giveaway #${giveaway.id} for **${giveaway.prize}** is being posted in <#${giveaway.channelId}>: ${winners}, drawn <t:${Math.floor(giveaway.endsAt.getTime() / 1000)}:R>.`;
}

/** `/giveaway start|end|reroll`: the API's giveaway writes, for staff who manage the server. */
export const giveawayCommand: BotCommand = {
  definition: {
    name: 'giveaway',
    description: 'Run giveaways',
    options: [
      {
        type: O.Subcommand,
        name: 'start',
        description: 'Start a giveaway now',
        options: [
          { type: O.Channel, name: 'channel', description: 'Where to post it', required: true, channel_types: [ChannelType.GuildText, ChannelType.GuildAnnouncement] },
          { type: O.String, name: 'prize', description: 'What the winners get', required: true, min_length: 1, max_length: 200 },
          { type: O.String, name: 'duration', description: 'How long it runs: 30m, 1d, 1w (1 minute to 60 days)', required: true, max_length: 30 },
          { type: O.Integer, name: 'winners', description: 'How many winners (default 1)', min_value: 1, max_value: 50 },
          { type: O.String, name: 'description', description: 'More about the prize', max_length: 1_000 },
        ],
      },
      { type: O.Subcommand, name: 'end', description: 'End a running giveaway now and draw its winners', options: [GIVEAWAY] },
      {
        type: O.Subcommand,
        name: 'reroll',
        description: 'Draw new winners of an ended giveaway',
        options: [GIVEAWAY, { type: O.Integer, name: 'count', description: 'How many new winners (default: all of them anew)', min_value: 1, max_value: 50 }],
      },
    ],
  },
  feature: 'giveaways',
  requires: { permission: P.ManageGuild, name: 'Manage Server' },
  claimsItself: true,
  async run(use) {
    if (use.options.subcommand === 'start') return start(use);
    const giveawayId = await giveawayIdOf(use, use.options.string('giveaway') ?? '');
    if (use.options.subcommand === 'end') return giveawayDraw(use, giveawayId, 'end');
    return giveawayDraw(use, giveawayId, 'reroll', use.options.integer('count'));
  },
  async complete(use, typed) {
    const needle = typed.trim().replace(/^#/, '').toLowerCase();
    const items = await openGiveaways(use, use.options.subcommand === 'end' ? 'active' : 'ended');
    return items
      .filter((g) => String(g.id).startsWith(needle) || g.prize.toLowerCase().includes(needle))
      .map((g) => choiceOf(`#${g.id} ${g.prize}`, String(g.id)));
  },
};
