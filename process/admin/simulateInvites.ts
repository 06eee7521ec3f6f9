import type { InviteJoinRecord } from '../../db/invites/joins.js';
import type { InviteSeasonRecord } from '../../db/invites/seasons.js';
import { joinThroughInvite } from '../../src/guild/joinThroughInvite.js';
import { judgeInviteJoin } from '../../src/invites/judgeInviteJoin.js';
import { configureMilestone, MAX_MILESTONE_INVITES } from '../../src/invites/configureMilestone.js';
import { endInviteSeason, startInviteSeason } from '../../src/invites/seasons.js';
import { optional, snowflake, text, wholeNumber } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminCommand } from './command.js';
import { MEMBER_DETAIL_FLAGS, MEMBER_FLAGS, memberFromFlags } from './memberCommands.js';
import { requireGuild } from './requireGuild.js';

// Invite tracking as the bot does it: a join through an inviter's code, the verdict on it (verified or fake),
// and the seasons operators run. A member's leave (simulate member-leave, member remove) moves their join to `left`.

const joinJson = (j: InviteJoinRecord) => ({
  userId: j.userId,
  inviterId: j.inviterId,
  inviteCode: j.inviteCode,
  status: j.status,
  seasonId: j.seasonId,
  joinedAt: j.joinedAt.toISOString(),
});

const seasonJson = (s: InviteSeasonRecord) => ({
  id: s.id,
  number: s.number,
  name: s.name,
  startsAt: s.startedAt.toISOString(),
  endsAt: s.endedAt?.toISOString() ?? null,
});

function verdictCommand(verdict: 'verify' | 'fake'): AdminCommand {
  return defineCommand({
    name: verdict === 'verify' ? 'invite-verify' : 'invite-fake',
    summary:
      verdict === 'verify'
        ? "a pending invite join is verified: it counts toward the inviter's invites (and the active season)"
        : 'a pending invite join is judged fake: it never counts',
    flags: { ...MEMBER_FLAGS, user: { ...MEMBER_FLAGS.user, help: "the joined member's id" }, ...OPERATOR_FLAG },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const userId = snowflake(flags.user, 'user');
      await requireGuild(ctx.db, guildId);
      const join = await ctx.db
        .transaction()
        .execute((trx) => judgeInviteJoin(trx, { guildId, userId, verdict, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }));
      return { json: joinJson(join), text: [`The join of ${userId} (invited by ${join.inviterId}) is now ${join.status}.`] };
    },
  });
}

export const inviteSimulateCommands: AdminCommand[] = [
  defineCommand({
    name: 'invite-join',
    summary: "someone joins through an inviter's code: members.joined (Members feature) and a pending join for the inviter",
    flags: {
      ...MEMBER_FLAGS,
      user: { ...MEMBER_FLAGS.user, help: "the joining user's id" },
      ...MEMBER_DETAIL_FLAGS,
      inviter: { type: 'string', placeholder: 'USER_ID', required: true, help: 'whose invite they used' },
      'invite-code': { type: 'string', placeholder: 'CODE', help: 'the invite code' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const m = memberFromFlags(flags);
      const inviterId = snowflake(flags.inviter, 'inviter');
      const inviteCode = optional(flags['invite-code'], (v) => text(v, 'invite-code', 100)) ?? null;
      const at = ctx.clock.now();
      const { join, attribution, events } = await ctx.db
        .transaction()
        .execute((trx) => joinThroughInvite(trx, { ...m, inviterId, inviteCode, at, actor: operatorActor(ctx, flags.operator) }));
      const fanout = await ctx.startFanouts(events);
      return {
        json: { ...joinJson(join), attribution, events: events.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt, data: e.data })), fanout },
        text: [
          `User ${m.userId} (${m.username}) joined guild ${m.guildId} through an invite of ${join.inviterId}: join ${join.status} (${attribution}).`,
          ...events.map((e) => `Event ${e.type} ${e.id}.`),
        ],
      };
    },
  }),
  verdictCommand('verify'),
  verdictCommand('fake'),
  defineCommand({
    name: 'season-start',
    summary: 'an operator starts the next invite season now (refused while one is active)',
    flags: { ...GUILD_FLAG, name: { type: 'string', placeholder: 'NAME', help: 'the season name' }, ...OPERATOR_FLAG },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const name = optional(flags.name, (v) => text(v, 'name', 100)) ?? null;
      await requireGuild(ctx.db, guildId);
      const season = await ctx.db
        .transaction()
        .execute((trx) => startInviteSeason(trx, { guildId, name, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }));
      return { json: seasonJson(season), text: [`Season ${season.number}${name ? ` (${name})` : ''} started in guild ${guildId}.`] };
    },
  }),
  defineCommand({
    name: 'season-end',
    summary: 'an operator ends the active invite season now; its counts are frozen',
    flags: { ...GUILD_FLAG, ...OPERATOR_FLAG },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      await requireGuild(ctx.db, guildId);
      const season = await ctx.db.transaction().execute((trx) => endInviteSeason(trx, { guildId, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }));
      return { json: seasonJson(season), text: [`Season ${season.number} ended in guild ${guildId}; its counts are frozen.`] };
    },
  }),
  defineCommand({
    name: 'invite-milestone',
    summary: 'staff add (or --remove) a milestone reward: a role given once a member reaches N invites',
    flags: {
      ...GUILD_FLAG,
      invites: { type: 'string', placeholder: 'N', required: true, help: `the invite count (1 to ${MAX_MILESTONE_INVITES.toLocaleString('en')})` },
      role: { type: 'string', placeholder: 'ROLE_ID', required: true, help: 'the role given' },
      remove: { type: 'boolean', help: 'remove this milestone instead (roles already given stay)' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const roleId = snowflake(flags.role, 'role');
      const invites = wholeNumber(flags.invites, 'invites', 1, MAX_MILESTONE_INVITES);
      await requireGuild(ctx.db, guildId);
      const action = flags.remove ? 'remove' : 'add';
      const milestones = await ctx.db
        .transaction()
        .execute((trx) => configureMilestone(trx, { guildId, milestone: { invites, roleId }, action, actor: operatorActor(ctx, flags.operator) }));
      return {
        json: { milestones },
        text: [
          `Milestone ${action === 'add' ? 'added' : 'removed'}: role ${roleId} at ${invites} invites.`,
          ...milestones.map((m) => `  ${m.invites} invites: role ${m.roleId}`),
        ],
      };
    },
  }),
];
