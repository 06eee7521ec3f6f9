import { afterAll, describe, expect, it } from 'vitest';
import { saveBankSettings } from '../../db/bank/accounts.js';
import { addInviteMilestone } from '../../db/invites/milestones.js';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { inviteMilestonesWorkflowId } from '../../src/invites/ids.js';
import { missingPermissions, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { createDiscordGuild, discordPlatformOn } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { bearer } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// Invite milestone roles and the bank log through the REST API with PLATFORM=discord: an effect Discord refuses for
// good is the step's recorded outcome (the run completes), not a failed run.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app, gateway } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform } } });

const writes = (path: string) => fake.requests.filter((r) => r.path === path && r.method !== 'GET');

describe('invite milestones on Discord', () => {
  it('a milestone role Discord refuses (50013): tried once and recorded as refused; the next milestone is still granted', async () => {
    const g = await createDiscordGuild(db(), fake);
    const userId = g.addMember();
    await addInviteMilestone(db(), g.id, { invites: 3, roleId: g.roles.reward });
    await addInviteMilestone(db(), g.id, { invites: 5, roleId: g.roles.moderator });
    const refusedPath = `/guilds/${g.id}/members/${userId}/roles/${g.roles.reward}`;
    fake.fail({ method: 'PUT', path: refusedPath, answer: missingPermissions() });
    const res = await app.http('POST', `/guilds/${g.id}/invites/members/${userId}/bonus`, { headers: bearer(g.key), body: { amount: 6 } });
    expect(res.status).toBe(201);
    const check = await eventually(
      () => db().selectFrom('invite_milestone_checks').select(['id', 'workflow_started_at']).where('guild_id', '=', g.id).executeTakeFirst(),
      (c) => c?.workflow_started_at != null,
    );
    const result = await gateway.client.workflow.getHandle(inviteMilestonesWorkflowId(g.id, check!.id)).result();
    expect(result).toEqual({ granted: [g.roles.moderator], refused: [{ roleId: g.roles.reward, error: 'BOT_MISSING_PERMISSIONS' }] });
    expect(writes(refusedPath).map((r) => r.status)).toEqual([403]);
    expect(fake.state.guilds.get(g.id)!.members.get(userId)!.roles.sort()).toEqual([g.roles.member, g.roles.moderator].sort());
    const grants = await db().selectFrom('invite_milestone_grants').select('role_id').where('guild_id', '=', g.id).execute();
    expect(grants.map((r) => r.role_id)).toEqual([g.roles.moderator]);
  });
});

describe('bank log on Discord', () => {
  it('a bank log post Discord refuses (50013): tried once, the batch completes with bankLogRefused; the transaction stands', async () => {
    const g = await createDiscordGuild(db(), fake);
    const userId = g.addMember();
    await saveBankSettings(db(), g.id, { currency: { name: 'coin', plural: 'coins', emoji: null }, startingBalance: 0, maxBalance: null, logChannelId: g.channels.log });
    const posts = `/channels/${g.channels.log}/messages`;
    fake.fail({ method: 'POST', path: posts, answer: missingPermissions() });
    const res = await app.http('POST', `/guilds/${g.id}/bank/members/${userId}/transactions`, { headers: bearer(g.key), body: { type: 'add', amount: 5, reason: 'prize' } });
    expect(res.status).toBe(201);
    const event = await eventually(
      () => db().selectFrom('events').select(['batch_id', 'fanout_started_at']).where('guild_id', '=', g.id).executeTakeFirst(),
      (e) => e?.fanout_started_at != null, // marked once its batch's run has started
    );
    const result = await gateway.client.workflow.getHandle(webhookBatchWorkflowId(g.id, Number(event!.batch_id))).result();
    expect(result).toEqual({ succeeded: 0, retrying: 0, cancelled: 0, bankLogRefused: 'BOT_MISSING_PERMISSIONS' });
    expect(writes(posts).map((r) => r.status)).toEqual([403]);
    const balance = await app.http('GET', `/guilds/${g.id}/bank/members/${userId}`, { headers: bearer(g.key) });
    expect(balance.body).toMatchObject({ balance: 5 });
  });
});
