import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
import { requireHumanMember } from '../../src/core/members.js';
import {
  LEVEL_CURVE_DESCRIPTION,
  LevelLeaderboard,
  LevelLeaderboardQuery,
  LevelMember,
  XpChange,
  XpChangeIdParams,
  XpChangeRequest,
} from '../../src/levels/contract.js';
import { readLevelLeaderboard, readLevelMember } from '../../src/levels/readLevels.js';
import { pendingXpChangeBody, readXpChange } from '../../src/levels/readXpChange.js';
import { requestXpChange } from '../../src/levels/requestXpChange.js';
import { xpChangeOperation } from '../../src/levels/xpChangeOperation.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'levels';
const feature = 'levels';

export function levelsRoutes({ db, platform, clock, temporal }: AppDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/levels/members/{userId}',
      operationId: 'getLevelMember',
      summary: "Get a member's level, XP and rank",
      description: `A member without activity gets zeros. ${LEVEL_CURVE_DESCRIPTION}`,
      area,
      feature,
      scope: 'levels:read',
      request: { params: GuildMemberParams },
      response: { status: 200, schema: LevelMember, description: 'The member on the level curve.' },
      handle: ({ params, caller: { guild } }) => readLevelMember(db, guild.id, params.userId),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/levels/leaderboard',
      operationId: 'getLevelLeaderboard',
      summary: 'Highest XP first',
      description:
        'Ties are ordered by user id. Members who hid themselves keep their rank with `userId: null`. On servers with ' +
        '10,000 or more ranked members, ranks and pages come from a snapshot recomputed every minute.',
      area,
      feature,
      scope: 'levels:read',
      request: { params: GuildParams, query: LevelLeaderboardQuery },
      response: { status: 200, schema: LevelLeaderboard, description: 'One page of the leaderboard.' },
      handle: ({ query, caller: { guild } }) => readLevelLeaderboard(db, guild.id, query),
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/levels/members/{userId}/xp-changes',
      operationId: 'createXpChange',
      summary: "Add, remove or set a member's XP (asynchronous)",
      description: `Answers 202 with status \`pending\`; poll GET /levels/xp-changes/{changeId}. ${LEVEL_CURVE_DESCRIPTION}`,
      area,
      feature,
      scope: 'levels:write',
      idempotent: true,
      request: { params: GuildMemberParams, body: XpChangeRequest },
      response: { status: 202, schema: XpChange, description: 'The queued change.' },
      errors: ['MEMBER_NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED', 'BOT_ACCOUNT'],
      check: ({ params, caller }) => requireHumanMember(platform, caller.guild.id, params.userId).then(() => {}),
      async handle({ params, body, caller, db: trx, launch }) {
        const record = await requestXpChange(trx, {
          guildId: caller.guild.id,
          userId: params.userId,
          asker: { apiKeyId: caller.apiKey.id },
          type: body.type,
          unit: body.unit,
          amount: body.amount,
          reason: body.reason ?? null,
          createdAt: clock.now(),
        });
        launch(xpChangeOperation, record);
        return pendingXpChangeBody(record);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/levels/xp-changes/{changeId}',
      operationId: 'getXpChange',
      summary: 'Poll an XP change',
      description: 'Only changes made with the same API key are visible; any other key gets 404 XP_CHANGE_NOT_FOUND.',
      area,
      feature,
      scope: 'levels:write',
      request: { params: XpChangeIdParams },
      response: { status: 200, schema: XpChange, description: 'The change and its status.' },
      errors: ['XP_CHANGE_NOT_FOUND'],
      handle: ({ params, caller }) => readXpChange({ db, temporal, clock }, { guildId: caller.guild.id, apiKeyId: caller.apiKey.id }, params.changeId),
    }),
  ];
}
