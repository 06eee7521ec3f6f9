import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationCommandOptionType as O, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { findModAction, type ModActionRecord } from '../../../db/moderation/actions.js';
import { claimInteraction } from '../../../db/platform/interactions.js';
import { admitModAction } from '../../../src/moderation/admitModAction.js';
import { BanRequest, ModReasonRequest, TimeoutRequest, WarnRequest } from '../../../src/moderation/contract.js';
import { modActionOperation } from '../../../src/moderation/modActionOperation.js';
import type { ModActionType } from '../../../src/moderation/refusalRules.js';
import { requestModAction, type ModActionAsked } from '../../../src/moderation/requestModAction.js';
import type { BotCommand, CommandUse } from './command.js';
import { parseDuration } from './duration.js';
import { launchAfterCommit } from './launch.js';
import { doneAnswer, onItsWayAnswer, PERMISSION_NAMES, refusedAnswer } from './modActionAnswers.js';
import { validated } from './validated.js';

/** How often a command looks whether its action finished (a row read by its id). */
const POLL_MS = 200;

const REASON = { type: O.String, name: 'reason', description: 'Shown in the case, the mod log and the member’s DM', min_length: 1, max_length: 500 } as const;

const reasonWords = (path: string) => (path === 'reason' ? 'The reason must be 1 to 500 characters of ordinary text.' : 'That request is not valid.');

/** Waits (bounded) for the action's workflow to finish it; undefined when it is still on its way. */
async function finished(use: CommandUse, actionId: string): Promise<ModActionRecord | undefined> {
  const deadline = Date.now() + use.deps.modActionWaitMs;
  for (;;) {
    const action = await findModAction(use.deps.db, actionId);
    if (action?.status === 'done' || action?.status === 'failed') return action;
    if (Date.now() >= deadline) return undefined;
    await sleep(POLL_MS);
  }
}

/**
 * The action as POST /moderation/users/{userId}/{action} takes it, asked by the invoker (source `command`): the
 * same admission (a member target where needed, 10 a minute per moderator), the same record and workflow, whose
 * check of the invoker's and the bot's permissions and roles against the target's is the API's. The answer waits
 * for the outcome: the case, or the refusal in words.
 */
async function act(use: CommandUse, action: ModActionType, userId: string, request: ModActionAsked['request']): Promise<string | null> {
  const { deps, guildId } = use;
  const by = { moderatorId: use.userId };
  await admitModAction({ db: deps.db, platform: deps.platform, clock: deps.clock }, { guildId, userId, action, by });
  const at = deps.clock.now();
  const record = await deps.db.transaction().execute(async (trx) => {
    if (!(await claimInteraction(trx, use.interactionId, guildId, at))) return null;
    return requestModAction(trx, { guildId, userId, action, by, request, requestedAt: at });
  });
  if (!record) return null;
  await launchAfterCommit(deps, modActionOperation, record);
  const outcome = await finished(use, record.actionId);
  if (!outcome) return onItsWayAnswer(record);
  return outcome.status === 'done' ? doneAnswer(outcome, outcome.caseNumber!) : refusedAnswer(outcome, outcome.error ?? '');
}

const requires = (action: ModActionType, permission: bigint) => ({ permission, name: PERMISSION_NAMES[action] });
const member = (description: string) => ({ type: O.User, name: 'member', description, required: true }) as const;

/** `/warn member reason`: POST …/warn (the warning counts toward escalation). */
export const warnCommand: BotCommand = {
  definition: { name: 'warn', description: 'Warn a member', options: [member('The member to warn'), { ...REASON, required: true }] },
  feature: 'moderation',
  requires: requires('warn', P.ModerateMembers),
  claimsItself: true,
  async run(use) {
    const body = validated(WarnRequest, { reason: use.options.string('reason') }, reasonWords);
    return act(use, 'warn', use.options.user('member')!.userId, body);
  },
};

/** `/timeout member duration [reason]`: POST …/timeout, 60 s to 28 days. */
export const timeoutCommand: BotCommand = {
  definition: {
    name: 'timeout',
    description: 'Time a member out',
    options: [
      member('The member to time out'),
      { type: O.String, name: 'duration', description: 'How long: 10m, 1h30m, 2d (1 minute to 28 days)', required: true, max_length: 30 },
      { ...REASON, required: true },
    ],
  },
  feature: 'moderation',
  requires: requires('timeout', P.ModerateMembers),
  claimsItself: true,
  async run(use) {
    const durationSeconds = parseDuration(use.options.string('duration') ?? '', '10m, 1h30m or 2d');
    const body = validated(TimeoutRequest, { durationSeconds, reason: use.options.string('reason') }, (path) =>
      path === 'durationSeconds' ? 'A timeout lasts 1 minute to 28 days.' : reasonWords(path),
    );
    return act(use, 'timeout', use.options.user('member')!.userId, body);
  },
};

/** The actions whose only input is a reason: `/untimeout`, `/kick`, `/unban`. */
function reasonOnly(action: 'untimeout' | 'kick' | 'unban', permission: bigint, description: string, target: { name: string; description: string }): BotCommand {
  return {
    definition: { name: action, description, options: [{ type: O.User, required: true, ...target }, REASON] },
    feature: 'moderation',
    requires: requires(action, permission),
    claimsItself: true,
    async run(use) {
      const body = validated(ModReasonRequest, { reason: use.options.string('reason') }, reasonWords);
      return act(use, action, use.options.user(target.name)!.userId, body);
    },
  };
}

export const untimeoutCommand = reasonOnly('untimeout', P.ModerateMembers, 'Lift a member’s timeout', { name: 'member', description: 'The member whose timeout ends' });
export const kickCommand = reasonOnly('kick', P.KickMembers, 'Kick a member from the server', { name: 'member', description: 'The member to kick' });
export const unbanCommand = reasonOnly('unban', P.BanMembers, 'Lift a ban', { name: 'user', description: 'The banned user (their id works too)' });

/** Discord's own choices in its ban dialog: how much of the user's recent messages to delete. */
const DELETE_CHOICES = [
  { name: 'Don’t delete any', value: 0 },
  { name: 'Previous hour', value: 3_600 },
  { name: 'Previous 6 hours', value: 21_600 },
  { name: 'Previous 12 hours', value: 43_200 },
  { name: 'Previous 24 hours', value: 86_400 },
  { name: 'Previous 3 days', value: 259_200 },
  { name: 'Previous 7 days', value: 604_800 },
];

/** `/ban member [reason] [delete_messages]`: POST …/ban (a member or not). */
export const banCommand: BotCommand = {
  definition: {
    name: 'ban',
    description: 'Ban a user, member of the server or not',
    options: [
      { type: O.User, name: 'member', description: 'The user to ban (their id works too)', required: true },
      REASON,
      { type: O.Integer, name: 'delete_messages', description: 'Delete their messages of this far back', choices: DELETE_CHOICES },
    ],
  },
  feature: 'moderation',
  requires: requires('ban', P.BanMembers),
  claimsItself: true,
  async run(use) {
    const body = validated(BanRequest, { reason: use.options.string('reason'), deleteMessageSeconds: use.options.integer('delete_messages') ?? 0 }, reasonWords);
    return act(use, 'ban', use.options.user('member')!.userId, body);
  },
};
