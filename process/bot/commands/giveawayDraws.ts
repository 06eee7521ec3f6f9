import { claimInteraction } from '../../../db/platform/interactions.js';
import type { GiveawayStatus } from '../../../db/giveaways/giveaways.js';
import { giveawayNotFound } from '../../../src/core/errors.js';
import { isDependencyUnavailable } from '../../../src/core/dependencyErrors.js';
import type { GiveawayDrawResultBody } from '../../../src/giveaways/contract.js';
import { endGiveaway, rerollGiveaway } from '../../../src/giveaways/giveawayUpdates.js';
import { readGiveawayPage } from '../../../src/giveaways/readGiveaways.js';
import type { CommandUse } from './command.js';

/** How long an end or reroll may wait for the giveaway's workflow (its draw) before the member is told to retry. */
const DRAW_DEADLINE_MS = 15_000;

/** The answer while the bot cannot reach Temporal, which runs each giveaway's draw. */
export const drawUnavailableAnswer = (what: 'end' | 'reroll') =>
  `The giveaway cannot be ${what === 'end' ? 'ended' : 'rerolled'} from Discord right now; try again in a minute.`;

/** The server's giveaways a sub-command can act on (end: running ones; reroll: ended ones), for suggestions and names. */
export async function openGiveaways(use: CommandUse, status: GiveawayStatus) {
  return (await readGiveawayPage(use.deps.db, use.guildId, { status, page: 1, limit: 100 })).items;
}

/** The giveaway the option names: its id (what a suggestion sends, or "#12"), else one with exactly that prize. */
export async function giveawayIdOf(use: CommandUse, typed: string): Promise<number> {
  const id = /^#?(\d{1,9})$/.exec(typed.trim())?.[1];
  if (id) return Number(id);
  const status = use.options.subcommand === 'end' ? 'active' : 'ended';
  const found = (await openGiveaways(use, status)).find((g) => g.prize.toLowerCase() === typed.trim().toLowerCase());
  if (!found) throw giveawayNotFound();
  return found.id;
}

const mentions = (ids: string[]) => ids.map((id) => `<@${id}>`).join(', ');

function drawAnswer({ giveaway, draw }: GiveawayDrawResultBody): string {
  const name = `giveaway #${giveaway.id} (**${giveaway.prize}**)`;
  const short = draw.shortfall > 0 ? ` ${draw.shortfall} place${draw.shortfall === 1 ? '' : 's'} stay empty: too few eligible entrants.` : '';
  if (draw.kind === 'end') {
    return draw.winnerIds.length === 0 ? `Ended ${name}: nobody eligible entered, so there is no winner.` : `Ended ${name}: won by ${mentions(draw.winnerIds)}.${short}`;
  }
  const replaced = draw.replacedUserIds.length > 0 ? ` in place of ${mentions(draw.replacedUserIds)}` : '';
  return draw.winnerIds.length === 0 ? `Rerolled ${name}: no eligible entrant was left to win.` : `Rerolled ${name}: ${mentions(draw.winnerIds)} won${replaced}.${short}`;
}

/**
 * `/giveaway end` and `/giveaway reroll`: the API's end and reroll (the giveaway workflow's updates), asked by the
 * invoker; the answer is the draw. Claimed first, so a replayed dispatch draws nothing twice.
 */
export async function giveawayDraw(use: CommandUse, giveawayId: number, what: 'end' | 'reroll', count?: number): Promise<string | null> {
  const { deps, guildId } = use;
  const temporal = deps.temporal;
  if (!(await deps.db.transaction().execute((trx) => claimInteraction(trx, use.interactionId, guildId, deps.clock.now())))) return null;
  if (!temporal) {
    deps.logger.warn({ guildId, giveawayId }, `/giveaway ${what} needs Temporal (TEMPORAL_ADDRESS is not set for the bot)`);
    return drawUnavailableAnswer(what);
  }
  const actor = { apiKeyId: null, userId: use.userId, requestId: null };
  const draw = () =>
    what === 'end'
      ? endGiveaway({ db: deps.db, temporal }, guildId, giveawayId, actor)
      : rerollGiveaway({ db: deps.db, temporal }, guildId, giveawayId, count === undefined ? {} : { count }, actor);
  try {
    return drawAnswer(await temporal.client.connection.withDeadline(Date.now() + DRAW_DEADLINE_MS, draw));
  } catch (err) {
    if (!isDependencyUnavailable(err)) throw err;
    deps.logger.warn({ err, guildId, giveawayId }, `/giveaway ${what}: Temporal unavailable`);
    return drawUnavailableAnswer(what);
  }
}
