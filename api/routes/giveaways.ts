import { GuildParams } from '../../src/core/contract.js';
import {
  EntriesQuery,
  Giveaway,
  GiveawayDetail,
  GiveawayDrawResult,
  GiveawayEntries,
  GiveawayList,
  GiveawayParams,
  GiveawayRerollRequest,
  GiveawaysQuery,
  GiveawayStartRequest,
} from '../../src/giveaways/contract.js';
import { checkGiveawayStart, createGiveaway, giveawayHostOf } from '../../src/giveaways/createGiveaway.js';
import { giveawayOperation } from '../../src/giveaways/giveawayOperation.js';
import { MAX_DURATION_SECONDS, MIN_DURATION_SECONDS } from '../../src/giveaways/giveawayRules.js';
import { endGiveaway, rerollGiveaway } from '../../src/giveaways/giveawayUpdates.js';
import { toGiveawayBody } from '../../src/giveaways/giveawayViews.js';
import { readGiveawayDetail, readGiveawayEntries, readGiveawayPage } from '../../src/giveaways/readGiveaways.js';
import type { AppDeps, Caller } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'giveaways';
const feature = 'giveaways';

const drawActor = (caller: Caller) => ({ apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy, requestId: caller.requestId });

export function giveawaysRoutes({ db, clock, platform, temporal }: AppDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/giveaways',
      operationId: 'listGiveaways',
      summary: 'Giveaways: running ones by end time, then the others newest first',
      description: 'Every status unless `status` is given (`open` = scheduled and active). Pages are numbered from 1; `nextPage` is null on the last.',
      area,
      feature,
      scope: 'giveaways:read',
      request: { params: GuildParams, query: GiveawaysQuery },
      response: { status: 200, schema: GiveawayList, description: 'One page of giveaways.' },
      handle: ({ query, caller }) => readGiveawayPage(db, caller.guild.id, query),
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/giveaways',
      operationId: 'startGiveaway',
      summary: 'Start (or schedule) a giveaway',
      description:
        'Answers 201 with the giveaway `scheduled` and `messageUrl` null; the bot posts the message within seconds (or at `startsAt`), ' +
        'making it `active`, and draws at `endsAt`. `channelId` must be a text or announcement channel of the server, `startsAt` ' +
        `not in the past nor more than 365 days ahead, and the giveaway ${MIN_DURATION_SECONDS} s to ${MAX_DURATION_SECONDS} s long; ` +
        'otherwise 422 INVALID_CHANNEL or INVALID_SCHEDULE (the body validated, but the giveaway cannot run). Exactly one of `endsAt` and ' +
        '`durationSeconds` is required: neither or both is 400 INVALID_REQUEST with `issues`.',
      area,
      feature,
      scope: 'giveaways:write',
      idempotent: true,
      request: { params: GuildParams, body: GiveawayStartRequest },
      response: { status: 201, schema: Giveaway, description: 'The giveaway, scheduled.' },
      errors: ['INVALID_CHANNEL', 'INVALID_SCHEDULE', 'IDEMPOTENCY_KEY_REUSED'],
      async check({ body, caller }) {
        await checkGiveawayStart(platform, caller.guild.id, body, clock.now());
        return { hostId: await giveawayHostOf(platform, caller.guild.id, body, caller.apiKey.createdBy) };
      },
      async handle({ body, caller, db: trx, launch, checked }) {
        const giveaway = await createGiveaway(trx, {
          guildId: caller.guild.id,
          body,
          defaultHostId: checked.hostId,
          at: clock.now(),
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
          requestId: caller.requestId,
        });
        launch(giveawayOperation, giveaway);
        return toGiveawayBody(giveaway, { entrants: 0, entries: 0 });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/giveaways/{giveawayId}',
      operationId: 'getGiveaway',
      summary: 'A giveaway with its entry counts, draws and latest bot actions',
      description: 'Adds `entryCounts`, `seedHash` (committed at creation), `draws` (each with the revealed seed) and the latest 20 `queuedActions`.',
      area,
      feature,
      scope: 'giveaways:read',
      request: { params: GiveawayParams },
      response: { status: 200, schema: GiveawayDetail, description: 'The giveaway.' },
      errors: ['GIVEAWAY_NOT_FOUND'],
      handle: ({ params, caller }) => readGiveawayDetail(db, caller.guild.id, params.giveawayId),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/giveaways/{giveawayId}/entries',
      operationId: 'listGiveawayEntries',
      summary: 'Entrants of a giveaway, first entered first',
      description: 'Pages are numbered from 1 (`page`, `limit`); `nextPage` is null on the last. A cancelled giveaway has no entrants (all were refunded).',
      area,
      feature,
      scope: 'giveaways:read',
      request: { params: GiveawayParams, query: EntriesQuery },
      response: { status: 200, schema: GiveawayEntries, description: 'One page of entrants.' },
      errors: ['GIVEAWAY_NOT_FOUND'],
      handle: ({ params, query, caller }) => readGiveawayEntries(db, caller.guild.id, params.giveawayId, query),
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/giveaways/{giveawayId}/end',
      operationId: 'endGiveaway',
      summary: 'End an active giveaway now and draw its winners',
      description:
        'No body. The giveaway workflow closes entries, draws and answers with the giveaway `ended` and the draw (200); ' +
        'the message edit, announcement and DMs follow. A scheduled, ended or cancelled giveaway answers 409 GIVEAWAY_NOT_ACTIVE with its `status`.',
      area,
      feature,
      scope: 'giveaways:write',
      request: { params: GiveawayParams },
      response: { status: 200, schema: GiveawayDrawResult, description: 'The giveaway and its draw.' },
      errors: ['GIVEAWAY_NOT_FOUND', 'GIVEAWAY_NOT_ACTIVE'],
      handle: ({ params, caller }) => endGiveaway({ db, temporal }, caller.guild.id, params.giveawayId, drawActor(caller)),
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/giveaways/{giveawayId}/reroll',
      operationId: 'rerollGiveaway',
      summary: 'Draw new winners of an ended giveaway',
      description:
        'A reroll replaces winners: `replaceUserIds` (default: every current winner) lose their win and `count` new winners ' +
        '(default: as many as bring the list back to `winners`) are drawn among eligible entrants who never won, so an empty body ' +
        'draws a whole new set and the list never grows past `winners` (422 TOO_MANY_WINNERS for a `count` that would; ' +
        '422 NOT_A_WINNER for a replaced id that is not a current winner). Answers 200 with the giveaway and the new draw; the announcement and DMs follow. ' +
        'Works after the reroll window too (the workflow is started again). Not ended: 409 GIVEAWAY_NOT_ENDED with its `status`.',
      area,
      feature,
      scope: 'giveaways:write',
      idempotent: true,
      request: { params: GiveawayParams, body: GiveawayRerollRequest },
      response: { status: 200, schema: GiveawayDrawResult, description: 'The giveaway and the new draw.' },
      errors: ['GIVEAWAY_NOT_FOUND', 'GIVEAWAY_NOT_ENDED', 'NOT_A_WINNER', 'TOO_MANY_WINNERS', 'IDEMPOTENCY_KEY_REUSED'],
      handle: ({ params, body, caller }) => rerollGiveaway({ db, temporal }, caller.guild.id, params.giveawayId, body, drawActor(caller)),
    }),
  ];
}
