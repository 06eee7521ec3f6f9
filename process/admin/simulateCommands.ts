import { AppealAnswersInput } from '../../src/appeals/contract.js';
import { submitAppeal } from '../../src/appeals/submitAppeal.js';
import { requireHumanMember } from '../../src/core/members.js';
import { joinMember } from '../../src/guild/joinMember.js';
import { leaveMember } from '../../src/guild/leaveMember.js';
import { MAX_ACTIVITY_PER_REPORT } from '../../src/levels/activityXp.js';
import { recordActivity } from '../../src/levels/recordActivity.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { jsonArg, optional, snowflake, text, wholeNumber } from './args.js';
import { defineCommand, OPERATOR_FLAG, operatorActor, type CommandGroup } from './command.js';
import { withEvents } from './eventOutput.js';
import { EFFECTS_TEXT, startLevelUpEffects } from './levelUpEffectsStart.js';
import { usageError } from './errors.js';
import { MEMBER_DETAIL_FLAGS, MEMBER_FLAGS, memberFromFlags } from './memberCommands.js';
import { requireGuild } from './requireGuild.js';
import { inviteSimulateCommands } from './simulateInvites.js';
import { applicationSimulateCommands } from './simulateApplications.js';
import { ticketSimulateCommands } from './simulateTickets.js';
import { giveawaySimulateCommands } from './simulateGiveaways.js';

// What the bot does when something happens on the chat platform, for local development and demos: each command
// calls its area's use case (rows, audit row and event in one transaction), then starts the event's fan-out, so
// webhooks go out as they would for the real thing.

export const simulateGroup: CommandGroup = {
  name: 'simulate',
  summary: 'what the bot does on platform activity, for local development',
  commands: [
    defineCommand({
      name: 'member-join',
      summary: 'someone joins the server: the member is added and members.joined emitted (Members feature)',
      flags: {
        ...MEMBER_FLAGS,
        user: { ...MEMBER_FLAGS.user, help: "the joining user's id" },
        ...MEMBER_DETAIL_FLAGS,
        inviter: { type: 'string', placeholder: 'USER_ID', help: 'who invited them (inviterId)' },
        'invite-code': { type: 'string', placeholder: 'CODE', help: 'the invite they used (inviteCode)' },
        ...OPERATOR_FLAG,
      },
      async run(flags, ctx) {
        const m = memberFromFlags(flags);
        const inviterId = optional(flags.inviter, (v) => snowflake(v, 'inviter')) ?? null;
        const inviteCode = optional(flags['invite-code'], (v) => text(v, 'invite-code', 100)) ?? null;
        const at = ctx.clock.now();
        const { events } = await ctx.db.transaction().execute((trx) =>
          joinMember(trx, { ...m, inviterId, inviteCode, at, actor: operatorActor(ctx, flags.operator), ifMember: 'refuse' }),
        );
        return withEvents(
          ctx,
          events,
          { userId: m.userId, username: m.username, bot: m.bot, roles: m.roleIds, inviterId, inviteCode, joinedAt: at.toISOString() },
          [`User ${m.userId} (${m.username}) joined guild ${m.guildId}.`],
          'No event: the Members feature is off in this guild.',
        );
      },
    }),
    defineCommand({
      name: 'member-leave',
      summary: 'a member leaves the server: the member is removed and members.left emitted (Members feature)',
      flags: { ...MEMBER_FLAGS, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const userId = snowflake(flags.user, 'user');
        const at = ctx.clock.now();
        const { username, events } = await ctx.db.transaction().execute((trx) =>
          leaveMember(trx, { guildId, userId, at, actor: operatorActor(ctx, flags.operator) }),
        );
        return withEvents(
          ctx,
          events,
          { userId, username, reason: 'left', leftAt: at.toISOString() },
          [`Member ${userId} (${username}) left guild ${guildId}.`],
          'No event: the Members feature is off in this guild.',
        );
      },
    }),
    defineCommand({
      name: 'level-activity',
      summary: `a member's messages and voice minutes earn XP (at the server's XP per message and per voice minute); levels.levelUp on a new level`,
      flags: {
        ...MEMBER_FLAGS,
        messages: { type: 'string', placeholder: 'N', help: 'messages they sent (each one counts)' },
        'voice-minutes': { type: 'string', placeholder: 'M', help: 'minutes they spent in voice channels' },
        channel: { type: 'string', placeholder: 'ID', help: "where they were active (a level-up announced in the member's current channel goes there)" },
        ...OPERATOR_FLAG,
      },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const userId = snowflake(flags.user, 'user');
        if (flags.messages === undefined && flags['voice-minutes'] === undefined) {
          throw usageError('MISSING_FLAG', '`simulate level-activity` needs --messages N or --voice-minutes M (or both).');
        }
        const messages = optional(flags.messages, (v) => wholeNumber(v, 'messages', 0, MAX_ACTIVITY_PER_REPORT)) ?? 0;
        const voiceMinutes = optional(flags['voice-minutes'], (v) => wholeNumber(v, 'voice-minutes', 0, MAX_ACTIVITY_PER_REPORT)) ?? 0;
        if (messages === 0 && voiceMinutes === 0) throw usageError('INVALID_ARGUMENT', 'Nothing to count: --messages and --voice-minutes are both 0.');
        const channelId = optional(flags.channel, (v) => snowflake(v, 'channel')) ?? null;
        await requireGuild(ctx.db, guildId);
        const platform = createLocalPlatform(ctx.db);
        // The bot counts members' messages only, never a bot's (as XP changes through the API refuse bots).
        await requireHumanMember(platform, guildId, userId);
        const { result, events, levelUps } = await ctx.db.transaction().execute((trx) =>
          recordActivity(trx, { guildId, userId, messages, voiceMinutes, channelId, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }),
        );
        const lines = [
          `Member ${userId} earned ${result.xpEarned} XP: ${result.xp} XP, level ${result.level}` +
            `${result.level > result.previousLevel ? ` (was ${result.previousLevel})` : ''}; ${result.messages} messages, ${result.voiceMinutes} voice minutes in all.`,
        ];
        // Reward roles and the announcement, as for the bot's messages: recorded with the XP, applied by the worker.
        const levelUpEffects = await startLevelUpEffects(ctx, levelUps);
        if (levelUpEffects !== 'none') lines.push(`Reward roles and announcement: ${EFFECTS_TEXT[levelUpEffects]}.`);
        return withEvents(ctx, events, { ...result, levelUpEffects }, lines, 'No event: no new level reached.');
      },
    }),
    defineCommand({
      name: 'appeal-file',
      summary: 'a banned user files a ban appeal with their answers: appeals.submitted',
      flags: {
        ...MEMBER_FLAGS,
        user: { ...MEMBER_FLAGS.user, help: "the banned user's id" },
        answers: {
          type: 'string',
          placeholder: 'JSON',
          required: true,
          help: 'the form\'s answers: [{"id":"why","type":"paragraph","label":"Why should we unban you?","value":"..."}]',
        },
        ...OPERATOR_FLAG,
      },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const userId = snowflake(flags.user, 'user');
        const filed = jsonArg(flags.answers, 'answers', AppealAnswersInput, 'an array of 1 to 25 {id, type, label, value}');
        await requireGuild(ctx.db, guildId);
        const ban = await createLocalPlatform(ctx.db).getBan(guildId, userId);
        const { appeal, events } = await ctx.db.transaction().execute((trx) =>
          submitAppeal(trx, { guildId, userId, ban, answers: filed, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }),
        );
        return withEvents(
          ctx,
          events,
          { ...appeal, createdAt: appeal.createdAt.toISOString() },
          [`User ${userId} filed appeal ${appeal.number} in guild ${guildId}${appeal.banCaseNumber === null ? '' : ` (about ban case ${appeal.banCaseNumber})`}.`],
          'No event.',
        );
      },
    }),
    ...inviteSimulateCommands,
    ...applicationSimulateCommands,
    ...ticketSimulateCommands,
    ...giveawaySimulateCommands,
  ],
};
