import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertModAction, type ModActionRequest } from '../../db/moderation/actions.js';
import { listCaseEvents } from '../../db/moderation/cases.js';
import { saveEscalationRule, saveModerationSettings } from '../../db/moderation/settings.js';
import { findPlatformBan, listPlatformModerationLog } from '../../db/platform/moderation.js';
import type { ModActionType } from '../../src/moderation/refusalRules.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';
import { createModerationGuild, type ModerationGuild } from '../harness/moderationGuild.js';

// The time-skipping server fires the hour- and day-long timers of timeouts, tempbans and warnings at once.
const bed = useTimeSkippingTestBed({ taskQueue: 'moderation-timers-test' });
const { db, taskQueue } = bed;

async function start(g: ModerationGuild, action: ModActionType, userId: string, request: Partial<ModActionRequest> = {}) {
  const actionId = `mda_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await insertModAction(db(), {
    actionId,
    guildId: g.id,
    userId,
    action,
    apiKeyId: g.keyId,
    moderatorId: null,
    source: 'api',
    request: { reason: null, evidence: [], durationSeconds: null, deleteMessageSeconds: 0, ...request },
    requestedAt: new Date(),
  });
  return bed.client.workflow.start('moderationAction', {
    taskQueue,
    workflowId: `mod-action/${g.id}/${actionId}`,
    args: [{ actionId, guildId: g.id }],
  });
}

const caseRow = (g: ModerationGuild, number: number) =>
  db().selectFrom('moderation_cases').selectAll().where('guild_id', '=', g.id).where('number', '=', number).executeTakeFirstOrThrow();

const eventTypes = async (g: ModerationGuild, number: number) => (await listCaseEvents(db(), g.id, number)).map((e) => e.type);

describe('moderation timers', () => {
  it('a timeout runs out: the case becomes inactive with an expired entry after exactly its duration', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const handle = await start(g, 'timeout', target, { durationSeconds: 3600 });
    expect(await handle.result()).toEqual({ status: 'done', caseNumber: 1 });
    const row = await caseRow(g, 1);
    expect(row).toMatchObject({ action: 'timeout', active: false });
    expect(row.resolved_at).not.toBeNull();
    expect(await eventTypes(g, 1)).toEqual(['created', 'dm', 'expired']);
    // One timer, set to fire at the case's end (an hour after the timeout began, less the steps in between).
    // (Workflow time: the test server's clock, which runs ahead of the wall clock once it skipped.)
    const events = (await handle.fetchHistory()).events!;
    const at = (e: (typeof events)[number]) => Number(e.eventTime!.seconds) * 1000 + e.eventTime!.nanos! / 1e6;
    const timers = events.filter((e) => e.timerStartedEventAttributes);
    expect(timers).toHaveLength(1);
    const firesMs = at(timers[0]!) + Number(timers[0]!.timerStartedEventAttributes!.startToFireTimeout!.seconds) * 1000;
    expect(Math.abs(firesMs - row.expires_at!.getTime())).toBeLessThan(1500);
    const sinceStart = row.expires_at!.getTime() - at(events[0]!);
    expect(sinceStart).toBeGreaterThan(3595_000);
    expect(sinceStart).toBeLessThan(3605_000);
  });

  it('a tempban runs out: the bot lifts the ban and the case expires', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const handle = await start(g, 'ban', target, { durationSeconds: 86_400, reason: 'cool off' });
    expect(await handle.result()).toEqual({ status: 'done', caseNumber: 1 });
    expect(await findPlatformBan(db(), g.id, target)).toBeUndefined();
    expect((await listPlatformModerationLog(db(), g.id, target)).map((e) => e.action)).toEqual(['ban', 'unban']);
    expect(await caseRow(g, 1)).toMatchObject({ action: 'tempban', active: false });
    expect(await eventTypes(g, 1)).toEqual(['created', 'dm', 'expired']);
  });

  it('a tempban lifted early by an unban is revoked, and its timer then changes nothing', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const tempban = await start(g, 'ban', target, { durationSeconds: 86_400 });
    // Wait for the tempban's case without letting time skip past its timer.
    await bed.client.withDeadline(Date.now() + 10_000, async () => {
      while ((await tempban.describe()).memo?.status !== 'done') await new Promise((r) => setTimeout(r, 50));
    });
    const unban = await start(g, 'unban', target);
    expect(await unban.result()).toEqual({ status: 'done', caseNumber: 2 });
    expect(await tempban.result()).toEqual({ status: 'done', caseNumber: 1 });
    expect((await listPlatformModerationLog(db(), g.id, target)).map((e) => e.action)).toEqual(['ban', 'unban']);
    expect(await eventTypes(g, 1)).toEqual(['created', 'dm', 'revoked']);
  });

  it('an expired warning stops counting toward escalation', async () => {
    const g = await createModerationGuild(db());
    await saveModerationSettings(db(), g.id, { dmMembers: false, logChannelId: null, warningExpirySeconds: 7 * 86_400 });
    await saveEscalationRule(db(), g.id, { warnings: 2, action: 'kick', durationSeconds: null });
    const target = await g.addMember();
    expect(await (await start(g, 'warn', target, { reason: 'one' })).result()).toEqual({ status: 'done', caseNumber: 1 });
    expect(await caseRow(g, 1)).toMatchObject({ active: false });
    expect(await eventTypes(g, 1)).toEqual(['created', 'expired']);
    expect(await (await start(g, 'warn', target, { reason: 'two' })).result()).toEqual({ status: 'done', caseNumber: 2 });
    const cases = await db().selectFrom('moderation_cases').select('action').where('guild_id', '=', g.id).execute();
    expect(cases.map((c) => c.action)).toEqual(['warn', 'warn']);
  });
});
