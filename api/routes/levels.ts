import { findLevelMember } from '../../db/levels/members.js';
import { findXpChange, type XpChangeRecord } from '../../db/levels/xpChanges.js';
import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
import {
  LEVEL_CURVE_DESCRIPTION,
  LevelLeaderboard,
  LevelLeaderboardQuery,
  LevelMember,
  XpChange,
  XpChangeIdParams,
  XpChangeRequest,
  type XpChangeBody,
} from '../../src/levels/contract.js';
import { levelFromXp } from '../../src/levels/curve.js';
import { xpChangeNotFound } from '../../src/core/errors.js';
import { requireHumanMember } from '../../src/core/members.js';
import { readOperationStatus } from '../../src/core/temporal/operation.js';
import { leaderboardPage, memberRank } from '../../src/levels/leaderboard.js';
import { requestXpChange } from '../../src/levels/requestXpChange.js';
import { xpChangeOperation, xpChangeStatus } from '../../src/levels/xpChangeOperation.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'levels';
const feature = 'levels';

function toXpChangeBody(record: XpChangeRecord, live: Pick<XpChangeBody, 'status' | 'result' | 'error'>): XpChangeBody {
  return {
    changeId: record.changeId,
    userId: record.userId,
    type: record.type,
    unit: record.unit,
    amount: record.amount,
    ...live,
    createdAt: record.createdAt.toISOString(),
    processedAt: record.processedAt?.toISOString() ?? null,
  };
}

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
      async handle({ params, caller: { guild } }) {
        const row = await findLevelMember(db, guild.id, params.userId);
        const xp = row?.xp ?? 0;
        const position = levelFromXp(xp);
        return {
          userId: params.userId,
          xp,
          level: position.level,
          xpIntoLevel: position.xpIntoLevel,
          xpForNext: position.xpForNext,
          progress: position.progress,
          messages: row?.messages ?? 0,
          voiceMinutes: row?.voiceMinutes ?? 0,
          streak: row?.streak ?? 0,
          bestStreak: row?.bestStreak ?? 0,
          rank: (await memberRank(db, guild.id, params.userId, xp)) ?? null,
          hidden: row?.hidden ?? false,
          lastXpAt: row?.lastXpAt?.toISOString() ?? null,
        };
      },
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
      async handle({ query, caller: { guild } }) {
        const { rows, total } = await leaderboardPage(db, guild.id, query.cursor, query.limit);
        const next = query.cursor + rows.length;
        return {
          items: rows.map((r, i) => ({
            rank: query.cursor + i + 1,
            userId: r.hidden ? null : r.userId,
            hidden: r.hidden,
            xp: r.xp,
            level: levelFromXp(r.xp).level,
            messages: r.messages,
            voiceMinutes: r.voiceMinutes,
          })),
          total,
          nextCursor: rows.length === query.limit && next < total && next <= 10_000_000 ? String(next) : null,
        };
      },
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
          apiKeyId: caller.apiKey.id,
          type: body.type,
          unit: body.unit,
          amount: body.amount,
          reason: body.reason ?? null,
          createdAt: clock.now(),
        });
        launch(xpChangeOperation, record);
        return toXpChangeBody(record, { status: 'pending', result: null, error: null });
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
      async handle({ params, caller }) {
        const record = await findXpChange(db, params.changeId);
        if (!record || record.apiKeyId !== caller.apiKey.id || record.guildId !== caller.guild.id) throw xpChangeNotFound();
        if (record.status === 'done' || record.status === 'failed') {
          return toXpChangeBody(record, { status: record.status, result: record.result, error: record.error });
        }
        const live = await readOperationStatus(temporal, xpChangeOperation.workflowId(record), xpChangeStatus);
        if (live.status === 'done') return toXpChangeBody(record, { status: 'done', result: live.result, error: null });
        if (live.status === 'failed') return toXpChangeBody(record, { status: 'failed', result: null, error: live.error });
        return toXpChangeBody(record, { status: live.status, result: null, error: null });
      },
    }),
  ];
}
