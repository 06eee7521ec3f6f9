import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { createFlowsActivities } from '../../activities/flows.js';
import { createLevelsActivities } from '../../activities/levels.js';
import { createModerationActivities } from '../../activities/moderation.js';
import { findXpChange } from '../../db/levels/xpChanges.js';
import { findModAction, insertModAction } from '../../db/moderation/actions.js';
import { deletePlatformMember } from '../../db/platform/local.js';
import { systemClock } from '../../src/core/clock.js';
import type { Feature } from '../../src/core/features.js';
import { createLogger } from '../../src/core/logger.js';
import { FLOW_NODE_FAILED } from '../../src/flows/ids.js';
import { requestXpChange } from '../../src/levels/requestXpChange.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { addTestMember, createTestGuild, createTestKey, snowflake } from '../harness/fixtures.js';
import { testGateway } from '../harness/temporal.js';

// The feature and member checks the activities share (src/guild/featureEnabled.ts, findHumanMember in
// src/core/members.ts), as each activity reports them: a refusal's code and message, never retried.
const { database } = useApiTestBed();

function activityDeps() {
  return {
    db: database.db,
    clock: systemClock,
    platform: createLocalPlatform(database.db),
    logger: createLogger('silent', 'test'),
    temporal: testGateway(),
    webhooks: { allowInsecureLocal: true },
  };
}

async function failureOf(run: Promise<unknown>): Promise<{ type: string | undefined; message: string; nonRetryable: boolean }> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  const failure = err as ApplicationFailure;
  return { type: failure.type ?? undefined, message: failure.message, nonRetryable: failure.nonRetryable === true };
}

async function guildWithMembers(features: Feature[]) {
  const guild = await createTestGuild(database.db, { features });
  return { guild, human: await addTestMember(database.db, guild), bot: await addTestMember(database.db, guild, { bot: true }) };
}

const XP_TARGET_REFUSALS = [
  ['the Levels feature is off', [] as Feature[], 'human', 'FEATURE_DISABLED', 'The Levels feature is disabled.'],
  ['the member left', ['levels'] as Feature[], 'stranger', 'MEMBER_NOT_FOUND', 'The user is no longer a member.'],
  ['the target is a bot', ['levels'] as Feature[], 'bot', 'BOT_ACCOUNT', 'The target is a bot account.'],
] as const;

describe('beginXpChange refuses a change whose feature or target went away', () => {
  it.each(XP_TARGET_REFUSALS)('when %s: %s', async (_case, features, who, code, message) => {
    const { guild, human, bot } = await guildWithMembers([...features]);
    const userId = who === 'human' ? human : who === 'bot' ? bot : snowflake();
    const begin = createLevelsActivities(activityDeps()).beginXpChange(snowflake(), guild.id, userId);
    expect(await failureOf(begin)).toEqual({ type: code, message, nonRetryable: true });
  });

  it('lets a change for a human member of a server with Levels on go ahead', async () => {
    const { guild, human } = await guildWithMembers(['levels']);
    await expect(createLevelsActivities(activityDeps()).beginXpChange(snowflake(), guild.id, human)).resolves.toBeUndefined();
  });
});

async function acceptedXpChange(features: Feature[], who: 'human' | 'bot' | 'stranger', body: { type: 'add' | 'set'; amount: number }) {
  const { guild, human, bot } = await guildWithMembers(features);
  const userId = who === 'human' ? human : who === 'bot' ? bot : snowflake();
  const key = await createTestKey(database.db, guild);
  const change = await requestXpChange(database.db, { guildId: guild.id, userId, asker: { apiKeyId: key.id }, unit: 'xp', reason: null, createdAt: new Date(), ...body });
  const run = () => createLevelsActivities(activityDeps()).runXpChange(change.changeId, guild.id, userId);
  return { guild, userId, change, run };
}

describe('runXpChange checks, applies and finishes a change in one step', () => {
  it.each(XP_TARGET_REFUSALS)('refuses it when %s: %s, and leaves it unapplied', async (_case, features, who, code, message) => {
    const { change, run } = await acceptedXpChange([...features], who, { type: 'add', amount: 50 });
    expect(await failureOf(run())).toEqual({ type: code, message, nonRetryable: true });
    expect(await findXpChange(database.db, change.changeId)).toMatchObject({ status: 'pending', result: null });
  });

  it('refuses a change that does not exist with XP_CHANGE_NOT_FOUND', async () => {
    const { guild, human } = await guildWithMembers(['levels']);
    const missing = createLevelsActivities(activityDeps()).runXpChange('xpc_missing', guild.id, human);
    expect(await failureOf(missing)).toEqual({ type: 'XP_CHANGE_NOT_FOUND', message: 'XP change xpc_missing does not exist.', nonRetryable: true });
  });

  it('records a change whose level stays done in the same step', async () => {
    const { change, run } = await acceptedXpChange(['levels'], 'human', { type: 'add', amount: 50 });
    expect(await run()).toEqual({ result: { previousLevel: 0, level: 0, xp: 50 }, finished: true });
    expect(await findXpChange(database.db, change.changeId)).toMatchObject({ status: 'done', result: { previousLevel: 0, level: 0, xp: 50 } });
  });

  it('leaves a change whose level moved processing, for its effects', async () => {
    const { change, run } = await acceptedXpChange(['levels'], 'human', { type: 'add', amount: 120 });
    expect(await run()).toEqual({ result: { previousLevel: 0, level: 1, xp: 120 }, finished: false });
    expect(await findXpChange(database.db, change.changeId)).toMatchObject({ status: 'processing', result: { previousLevel: 0, level: 1, xp: 120 } });
  });

  it('answers a retry after its commit with the stored result, applied once, even after the member left', async () => {
    const { guild, userId, change, run } = await acceptedXpChange(['levels'], 'human', { type: 'add', amount: 120 });
    const first = await run();
    await deletePlatformMember(database.db, guild.id, userId);
    expect(await run()).toEqual(first);
    const member = await database.db.selectFrom('level_members').select('xp').where('guild_id', '=', guild.id).where('user_id', '=', userId).executeTakeFirst();
    expect(member).toEqual({ xp: 120 });
    const audit = await database.db.selectFrom('audit_log').select('action').where('guild_id', '=', guild.id).where('action', '=', 'levels.xpChange').execute();
    expect(audit).toHaveLength(1);
    const events = await database.db.selectFrom('events').select('type').where('guild_id', '=', guild.id).execute();
    expect(events).toEqual([{ type: 'levels.levelUp' }]);
    expect((await findXpChange(database.db, change.changeId))?.status).toBe('processing');
  });
});

describe('flow bank and XP nodes fail on a disabled feature or a target that is not a human member', () => {
  const ref = (guildId: string) => ({ guildId, executionId: 1, nodeId: 'n1' });
  const bank = (userId: string) => ({ userId, action: 'add', amount: 5, reason: null });

  it.each([
    ['Bank off', [] as Feature[], 'human', 'BANK_DISABLED: the bank feature is disabled on this server'],
    ['a stranger', ['bank'] as Feature[], 'stranger', 'MEMBER_NOT_FOUND: %u is not a member of this server'],
    ['a bot', ['bank'] as Feature[], 'bot', 'BOT_ACCOUNT: %u is a bot account'],
  ] as const)('a bank node for %s', async (_case, features, who, message) => {
    const { guild, human, bot } = await guildWithMembers([...features]);
    const userId = who === 'human' ? human : who === 'bot' ? bot : snowflake();
    const run = createFlowsActivities(activityDeps()).flowBankTransaction(ref(guild.id), bank(userId));
    expect(await failureOf(run)).toEqual({ type: FLOW_NODE_FAILED, message: message.replace('%u', userId), nonRetryable: true });
    expect(await database.db.selectFrom('bank_accounts').selectAll().where('guild_id', '=', guild.id).execute()).toEqual([]);
  });

  it('an XP node with Levels off', async () => {
    const { guild, human } = await guildWithMembers(['bank']);
    const run = createFlowsActivities(activityDeps()).flowXpChange(ref(guild.id), { userId: human, action: 'add', unit: 'xp', amount: 5 });
    expect(await failureOf(run)).toEqual({ type: FLOW_NODE_FAILED, message: 'FEATURE_DISABLED: the levels feature is disabled on this server', nonRetryable: true });
    expect(await database.db.selectFrom('level_members').selectAll().where('guild_id', '=', guild.id).execute()).toEqual([]);
  });
});

describe('beginModAction refuses an action when Moderation went off since it was accepted', () => {
  it('FEATURE_DISABLED, never retried; the action is running and nothing about its target is recorded', async () => {
    const { guild, human } = await guildWithMembers([]);
    const actionId = randomUUID();
    const request = { reason: null, evidence: [], durationSeconds: null, deleteMessageSeconds: 0 };
    await insertModAction(database.db, { actionId, guildId: guild.id, userId: human, action: 'warn', apiKeyId: null, moderatorId: null, source: 'api', request, requestedAt: new Date(0) });
    const begin = createModerationActivities(activityDeps()).beginModAction(actionId);
    expect(await failureOf(begin)).toEqual({ type: 'FEATURE_DISABLED', message: 'The Moderation feature is disabled.', nonRetryable: true });
    expect(await findModAction(database.db, actionId)).toMatchObject({ status: 'running', caseNumber: null, targetMember: null });
    expect(await database.db.selectFrom('moderation_cases').selectAll().where('guild_id', '=', guild.id).execute()).toEqual([]);
  });
});
