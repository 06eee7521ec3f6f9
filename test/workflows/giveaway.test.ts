import { describe, expect, it } from 'vitest';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { systemClock } from '../../src/core/clock.js';
import { relayGiveawayCancels } from '../../src/giveaways/cancelRelay.js';
import { drawWinners } from '../../src/giveaways/drawRules.js';
import { giveawayRerollUpdate, giveawayWorkflowId } from '../../src/giveaways/ids.js';
import { giveawayRequests, type GiveawayGuild } from '../api/giveaways/giveawayBed.js';
import { eventually } from '../harness/eventually.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// The giveaway workflow on the dev server, driven through the API: start, entries, the end and reroll updates, cancel.
const { db, app, gateway } = useWorkflowTestBed();
const { setup, start, get, end, reroll, enter, cancel, refused } = giveawayRequests(db, app, systemClock);

async function active(g: GiveawayGuild, id: number) {
  const res = await eventually(() => get(g, id), (r) => r.body?.status === 'active');
  expect(res.body.status).toBe('active');
  return res.body;
}

/** The giveaway once every queued action of its draws is done or failed. */
const settled = (g: GiveawayGuild, id: number) =>
  eventually(
    () => get(g, id),
    (r) => r.body.draws.length > 0 && r.body.queuedActions.every((a: { status: string }) => a.status !== 'queued'),
  ).then((r) => r.body);

const messages = async (g: GiveawayGuild) => (await listPlatformMessages(db(), g.id, g.channelId)).map((m) => m.content);

describe('giveaway workflow (dev server)', () => {
  it('posts at once, ends by the end update with a draw, edits the message, announces, DMs, emits giveaways.ended; rerolls', async () => {
    const g = await setup();
    const members = [];
    for (let i = 0; i < 6; i++) members.push(await g.addMember({ roleIds: i < 2 ? [g.roles.member, g.roles.booster] : [g.roles.member] }));
    const res = await start(g, { prize: 'Gift card', winners: 2, requirements: { bonusRoles: [{ roleId: g.roles.booster, entries: 3 }] } });
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    const posted = await active(g, id);
    expect(posted.messageUrl).toMatch(new RegExp(`/channels/${g.id}/${g.channelId}/\\d+$`));
    expect(posted.queuedActions).toEqual([expect.objectContaining({ type: 'post', status: 'done' })]);
    expect(await messages(g)).toEqual([expect.stringContaining('**Gift card**')]);
    for (const m of members) await enter(g, id, m);
    // A member who left before the draw is not drawn.
    await db().deleteFrom('platform_members').where('guild_id', '=', g.id).where('user_id', '=', members[5]!).execute();

    const ended = await end(g, id);
    expect(ended.status).toBe(200);
    const row = await db().selectFrom('giveaways').select('seed').where('guild_id', '=', g.id).executeTakeFirstOrThrow();
    const candidates = members.slice(0, 5).map((userId, i) => ({ userId, tickets: i < 2 ? 3 : 1 }));
    const winners = drawWinners(row.seed, 1, candidates, 2);
    expect(ended.body.draw).toMatchObject({ drawNumber: 1, kind: 'end', requested: 2, winnerIds: winners, entrants: 6, entries: 10, shortfall: 0, seed: row.seed });
    // Two winners among six, one of whom left: the first batch of four look-ups finds them.
    expect(ended.body.draw.checkedEntrants).toBe(4);
    expect(ended.body.giveaway).toMatchObject({ status: 'ended', winnerIds: winners, entrants: 6, entries: 10, entryCounts: { bonusEntries: 4 } });
    const again = await end(g, id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'GIVEAWAY_NOT_ACTIVE', status: 'ended' });

    const after = await settled(g, id);
    expect(after.queuedActions.map((a: { type: string; status: string }) => `${a.type}:${a.status}`).sort()).toEqual(['announce:done', 'dm:done', 'dm:done', 'edit:done', 'post:done']);
    expect(await messages(g)).toEqual([expect.stringContaining('Winners: '), expect.stringContaining('Congratulations')]);
    for (const w of winners) expect(await listPlatformDirectMessages(db(), g.id, w)).toHaveLength(1);
    const events = await db().selectFrom('events').select('data').where('guild_id', '=', g.id).where('type', '=', 'giveaways.ended').execute();
    expect(events.map((e) => e.data)).toEqual([
      { giveawayId: id, prize: 'Gift card', channelId: g.channelId, messageUrl: posted.messageUrl, winnerIds: winners, entrants: 6, entries: 10, endedAt: after.endedAt },
    ]);

    // Reroll one winner: the replacement comes from those who never won.
    const first = await reroll(g, id, { replaceUserIds: [winners[0]] });
    expect(first.status).toBe(200);
    expect(first.body.draw).toMatchObject({ drawNumber: 2, kind: 'reroll', requested: 1, replacedUserIds: [winners[0]], entrants: 4, checkedEntrants: 4 });
    const newWinner = first.body.draw.winnerIds[0];
    expect(winners).not.toContain(newWinner);
    expect(first.body.giveaway.winnerIds).toEqual([winners[1], newWinner]);
    // The list never grows past `winners`: 5 new winners for a giveaway of 2 is refused before any draw.
    await settled(g, id);
    await refused(g.id, async () => {
      const tooMany = await reroll(g, id, { count: 5 });
      expect(tooMany.status).toBe(422);
      expect(tooMany.body).toEqual({ error: 'TOO_MANY_WINNERS', message: 'The giveaway has 2 winners at most: this reroll may draw 1 to 2, not 5.' });
    });
    // An empty body replaces every current winner, by as many new ones, drawn from those who never won.
    const all = await reroll(g, id, {});
    expect(all.status).toBe(200);
    expect(all.body.draw).toMatchObject({ drawNumber: 3, requested: 2, replacedUserIds: [winners[1], newWinner], entrants: 3, checkedEntrants: 3, shortfall: 0 });
    expect(all.body.draw.winnerIds).toHaveLength(2);
    expect(all.body.giveaway.winnerIds).toEqual(all.body.draw.winnerIds);
    // The workflow's draw holds the rule too, for an update that did not come through the route's check.
    const handle = gateway.client.workflow.getHandle(giveawayWorkflowId(g.id, id));
    await settled(g, id);
    await refused(g.id, async () => {
      const direct = handle.executeUpdate(giveawayRerollUpdate, { args: [{ count: 3, actor: { apiKeyId: null, userId: null, requestId: null } }] });
      await expect(direct).rejects.toMatchObject({ cause: { type: 'TOO_MANY_WINNERS' } });
    });
    // Nobody eligible left (the last entrant left the server): the winners are replaced by none, the shortfall recorded.
    const none = await reroll(g, id, {});
    expect(none.body.draw).toMatchObject({ drawNumber: 4, requested: 2, winnerIds: [], entrants: 1, checkedEntrants: 1, shortfall: 2 });
    expect(none.body.giveaway.winnerIds).toEqual([]);
    expect((await settled(g, id)).draws.map((d: { drawNumber: number }) => d.drawNumber)).toEqual([1, 2, 3, 4]);
  });

  it('a one-winner giveaway rerolled with an empty body has one winner, a new one, after each reroll', async () => {
    const g = await setup();
    const members = [await g.addMember(), await g.addMember(), await g.addMember()];
    const id = (await start(g, {})).body.id as number;
    await active(g, id);
    for (const m of members) await enter(g, id, m);
    const ended = await end(g, id);
    const winners: string[] = [...ended.body.giveaway.winnerIds];
    expect(winners).toHaveLength(1);
    for (const drawNumber of [2, 3]) {
      const res = await reroll(g, id, {});
      expect(res.status).toBe(200);
      expect(res.body.draw).toMatchObject({ drawNumber, kind: 'reroll', requested: 1, replacedUserIds: [winners.at(-1)] });
      expect(res.body.giveaway.winnerIds).toHaveLength(1);
      expect(winners).not.toContain(res.body.giveaway.winnerIds[0]);
      winners.push(res.body.giveaway.winnerIds[0]);
    }
    expect(new Set(winners)).toEqual(new Set(members));
    expect((await get(g, id)).body.winnerIds).toEqual([winners[2]]);
  });

  it('a reroll after the run closed starts the workflow again and is answered by it', async () => {
    const g = await setup();
    const members = [await g.addMember(), await g.addMember(), await g.addMember()];
    const id = (await start(g, {})).body.id as number;
    await active(g, id);
    for (const m of members) await enter(g, id, m);
    const ended = await end(g, id);
    await settled(g, id);
    const handle = gateway.client.workflow.getHandle(giveawayWorkflowId(g.id, id));
    // As when the reroll window has passed (test/workflows/giveawayTimers.test.ts shows the run then completes).
    await handle.terminate('reroll window passed');
    const res = await reroll(g, id, { replaceUserIds: ended.body.draw.winnerIds }, { 'Idempotency-Key': 'reroll-1' });
    expect(res.status).toBe(200);
    // A retry with the same Idempotency-Key gets the stored answer; no second draw.
    const replay = await reroll(g, id, { replaceUserIds: ended.body.draw.winnerIds }, { 'Idempotency-Key': 'reroll-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(res.body);
    expect(res.body.draw).toMatchObject({ drawNumber: 2, kind: 'reroll', winnerIds: [expect.any(String)] });
    expect(ended.body.draw.winnerIds).not.toContain(res.body.draw.winnerIds[0]);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect((await get(g, id)).body.draws).toHaveLength(2);
    expect(await eventually(() => messages(g), (m) => m.length === 3)).toEqual([expect.any(String), expect.any(String), expect.stringContaining('New winner')]);
  });

  it('a deleted message and a winner refusing DMs are recorded as failed actions; the announcement still goes out', async () => {
    const g = await setup();
    const winner = await g.addMember();
    await db().updateTable('platform_members').set({ accepts_dms: false }).where('guild_id', '=', g.id).where('user_id', '=', winner).execute();
    const id = (await start(g, {})).body.id as number;
    await active(g, id);
    await enter(g, id, winner);
    await db().deleteFrom('platform_messages').where('guild_id', '=', g.id).where('channel_id', '=', g.channelId).execute();
    expect((await end(g, id)).body.draw.winnerIds).toEqual([winner]);
    const after = await settled(g, id);
    const byType = Object.fromEntries(after.queuedActions.map((a: { type: string; status: string; error: string | null }) => [a.type, `${a.status}:${a.error}`]));
    expect(byType).toEqual({ post: 'done:null', edit: 'failed:MESSAGE_NOT_FOUND', announce: 'done:null', dm: 'failed:DM_FAILED' });
    expect(await messages(g)).toEqual([expect.stringContaining('Congratulations')]);
  });

  it('409 GIVEAWAY_NOT_ACTIVE for the end of a scheduled giveaway, and GIVEAWAY_NOT_ENDED for a reroll of an active one; nothing changes', async () => {
    const g = await setup();
    const later = (await start(g, { startsAt: new Date(Date.now() + 3_600_000).toISOString() })).body.id as number;
    const now = (await start(g, {})).body.id as number;
    await active(g, now);
    await refused(g.id, async () => {
      const res = await end(g, later);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'GIVEAWAY_NOT_ACTIVE', status: 'scheduled' });
      const early = await reroll(g, now, {});
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ error: 'GIVEAWAY_NOT_ENDED', status: 'active' });
    });
  });

  it('a cancel refunds the entries at once; the cancel relay then stops the run, which shows the cancel in the message', async () => {
    const g = await setup();
    const member = await g.addMember();
    const id = (await start(g, {})).body.id as number;
    await active(g, id);
    await enter(g, id, member);
    const { refunds } = await cancel(g, id);
    expect(refunds).toEqual([]);
    expect(await relayGiveawayCancels({ db: db(), temporal: gateway, clock: systemClock })).toBeGreaterThanOrEqual(1);
    const handle = gateway.client.workflow.getHandle(giveawayWorkflowId(g.id, id));
    expect(await handle.result()).toEqual({ status: 'cancelled', draws: 0 });
    expect(await messages(g)).toEqual([expect.stringContaining('This giveaway was cancelled.')]);
    const res = await end(g, id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'GIVEAWAY_NOT_ACTIVE', status: 'cancelled' });
    expect((await get(g, id)).body).toMatchObject({ status: 'cancelled', entrants: 0, winnerIds: [] });
  });
});
