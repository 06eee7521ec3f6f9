import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
import { requireHumanMember } from '../../src/core/members.js';
import { addBonusInvites } from '../../src/invites/addBonusInvites.js';
import { BonusRequest, BonusResult, InviteLeaderboard, InviteLeaderboardQuery, InviteMember } from '../../src/invites/contract.js';
import { milestoneOperation } from '../../src/invites/milestoneOperation.js';
import { readInviteLeaderboard, readInviteMember } from '../../src/invites/readInvites.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'invites';
const feature = 'invites';

export function invitesRoutes({ db, platform, clock }: AppDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/invites/members/{userId}',
      operationId: 'getInviteMember',
      summary: "Get a member's invite counts and rank",
      description:
        'Members who invited nobody get zeros. `invites` is verified + bonus, never below 0; `rank` is by invites, ties ' +
        'share a rank, null without invites. `season` is the active season (null while none is active).',
      area,
      feature,
      scope: 'invites:read',
      request: { params: GuildMemberParams },
      response: { status: 200, schema: InviteMember, description: 'The member as an inviter.' },
      handle: ({ params, caller: { guild } }) => readInviteMember(db, guild.id, params.userId),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/invites/leaderboard',
      operationId: 'getInviteLeaderboard',
      summary: 'Most invites first',
      description:
        '`all` ranks members with invites above 0 by invites (verified + bonus), ties share a rank and are ordered by user ' +
        'id; on servers with 10,000 or more ranked inviters, its ranks and pages come from a snapshot recomputed every ' +
        'minute. `season` ranks by the active season\'s invites (verified joins in its window plus bonus added in it) and is empty ' +
        '(with `season: null`) while no season is active. `season` carries the active season in both periods.',
      area,
      feature,
      scope: 'invites:read',
      request: { params: GuildParams, query: InviteLeaderboardQuery },
      response: { status: 200, schema: InviteLeaderboard, description: 'One page of the leaderboard.' },
      handle: ({ query, caller: { guild } }) => readInviteLeaderboard(db, guild.id, query),
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/invites/members/{userId}/bonus',
      operationId: 'addBonusInvites',
      summary: 'Add or remove bonus invites',
      description:
        'A positive amount adds bonus invites, a negative one removes them; the bonus may go below zero while `invites` ' +
        'stays at 0 or more. Counts toward the active season. Written to the audit log. Milestone roles the new count ' +
        'reaches are granted by the bot within seconds (workflow `invite-milestones/<guildId>/<checkId>`); roles are not ' +
        'taken back when the count drops.',
      area,
      feature,
      scope: 'invites:write',
      idempotent: true,
      request: { params: GuildMemberParams, body: BonusRequest },
      response: { status: 201, schema: BonusResult, description: 'The bonus as applied.' },
      errors: ['MEMBER_NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED', 'BOT_ACCOUNT'],
      check: ({ params, caller }) => requireHumanMember(platform, caller.guild.id, params.userId).then(() => {}),
      async handle({ params, body, caller, db: trx, launch }) {
        const { result, milestoneCheck } = await addBonusInvites(trx, {
          guildId: caller.guild.id,
          userId: params.userId,
          amount: body.amount,
          reason: body.reason ?? null,
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
          requestId: caller.requestId,
          at: clock.now(),
        });
        if (milestoneCheck) launch(milestoneOperation, milestoneCheck);
        return result;
      },
    }),
  ];
}
