import { listDraws } from '../../db/giveaways/draws.js';
import { countEntries, listEntries } from '../../db/giveaways/entries.js';
import { findGiveaway } from '../../db/giveaways/giveaways.js';
import { findGiveawaySettings } from '../../db/giveaways/settings.js';
import { GuildParams } from '../../src/core/contract.js';
import { giveawayNotActive, giveawayNotEnded, giveawayNotFound, invalidChannel, invalidRequest, invalidSchedule, rerollRefused } from '../../src/core/errors.js';
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
import { createGiveaway, scheduleOf } from '../../src/giveaways/createGiveaway.js';
import { giveawayOperation } from '../../src/giveaways/giveawayOperation.js';
import { MAX_DURATION_SECONDS, MIN_DURATION_SECONDS } from '../../src/giveaways/giveawayRules.js';
import { requestEnd, requestReroll } from '../../src/giveaways/giveawayUpdates.js';
import { nextPageOf, toEntrantBody, toGiveawayBody } from '../../src/giveaways/giveawayViews.js';
import { readGiveawayDetail, readGiveawayPage } from '../../src/giveaways/readGiveaways.js';
import { planReroll } from '../../src/giveaways/rerollRules.js';
import type { AppDeps, Caller } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'giveaways';
const feature = 'giveaways';
const POSTABLE_CHANNELS = new Set(['text', 'announcement']);
/** How far ahead a giveaway may be scheduled (the spec sets no bound; a year keeps timers sane). */
const MAX_LEAD_MS = 365 * 86_400_000;

const drawActor = (caller: Caller) => ({ apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy, requestId: caller.requestId });

export function giveawaysRoutes({ db, clock, platform, temporal }: AppDeps): RouteDefinition[] {
  async function drawResult(guildId: string, giveawayId: number, drawNumber: number) {
    const giveaway = (await readGiveawayDetail(db, guildId, giveawayId))!;
    return { giveaway, draw: giveaway.draws.find((d) => d.drawNumber === drawNumber)! };
  }
  /** The host of a key without a creator: the server's owner. */
  async function serverOwner(guildId: string): Promise<string> {
    const guild = await platform.getGuild(guildId);
    if (!guild) throw invalidRequest([{ location: 'body', path: 'hostId', message: 'is required: the key has no creator to default to' }]);
    return guild.ownerId;
  }
  async function existing(guildId: string, giveawayId: number) {
    const g = await findGiveaway(db, guildId, giveawayId);
    if (!g) throw giveawayNotFound();
    return g;
  }

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
        const now = clock.now();
        const { startsAt, endsAt } = scheduleOf(body, now);
        if (startsAt < now) throw invalidSchedule('startsAt must not be in the past.');
        if (startsAt.getTime() - now.getTime() > MAX_LEAD_MS) throw invalidSchedule('startsAt must be within 365 days from now.');
        const seconds = (endsAt.getTime() - startsAt.getTime()) / 1000;
        if (seconds < MIN_DURATION_SECONDS || seconds > MAX_DURATION_SECONDS) {
          throw invalidSchedule(`endsAt must be ${MIN_DURATION_SECONDS} to ${MAX_DURATION_SECONDS} seconds after the start.`);
        }
        const channel = (await platform.listChannels(caller.guild.id)).find((c) => c.id === body.channelId);
        if (!channel || !POSTABLE_CHANNELS.has(channel.type)) throw invalidChannel();
      },
      async handle({ body, caller, db: trx, launch }) {
        const giveaway = await createGiveaway(trx, {
          guildId: caller.guild.id,
          body,
          defaultHostId: body.hostId ?? caller.apiKey.createdBy ?? (await serverOwner(caller.guild.id)),
          settings: await findGiveawaySettings(trx, caller.guild.id),
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
      async handle({ params, caller }) {
        const detail = await readGiveawayDetail(db, caller.guild.id, params.giveawayId);
        if (!detail) throw giveawayNotFound();
        return detail;
      },
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
      async handle({ params, query, caller }) {
        const g = await existing(caller.guild.id, params.giveawayId);
        const { entrants } = (await countEntries(db, g.guildId, [g.id])).get(g.id)!;
        const items = await listEntries(db, g.guildId, g.id, { offset: (query.page - 1) * query.limit, limit: query.limit });
        return { items: items.map(toEntrantBody), total: entrants, page: query.page, nextPage: nextPageOf(query.page, query.limit, entrants) };
      },
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
      async handle({ params, caller }) {
        const g = await existing(caller.guild.id, params.giveawayId);
        // An active giveaway already being drawn is let through: the workflow answers with that same draw.
        if (g.status !== 'active') throw giveawayNotActive(g.status);
        const { drawNumber } = await requestEnd(temporal, g, drawActor(caller));
        return drawResult(g.guildId, g.id, drawNumber);
      },
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
      async handle({ params, body, caller }) {
        const g = await existing(caller.guild.id, params.giveawayId);
        if (g.status !== 'ended') throw giveawayNotEnded(g.status);
        // Refused here when the winners as they stand say so; the draw resolves the defaults again against its own.
        const planned = planReroll(g, body);
        if ('refusal' in planned) throw rerollRefused(planned.refusal.code, planned.refusal.message);
        const lastDrawNumber = (await listDraws(db, g.guildId, g.id)).length;
        const { drawNumber } = await requestReroll(temporal, g, lastDrawNumber, { ...body, actor: drawActor(caller) });
        return drawResult(g.guildId, g.id, drawNumber);
      },
    }),
  ];
}
