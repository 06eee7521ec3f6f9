import { describe, expect, it } from 'vitest';
import { addInviteMilestone } from '../../db/invites/milestones.js';
import { findPlatformMember } from '../../db/platform/local.js';
import type { Platform } from '../../src/core/platform.js';
import { relayUnstarted } from '../../src/core/temporal/operation.js';
import { systemClock } from '../../src/core/clock.js';
import { inviteMilestonesWorkflowId } from '../../src/invites/ids.js';
import { joinThroughInvite } from '../../src/guild/joinThroughInvite.js';
import { judgeInviteJoin } from '../../src/invites/judgeInviteJoin.js';
import { milestoneOperation } from '../../src/invites/milestoneOperation.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

/** Role ids whose next grant is applied on the platform and then reported lost, so the activity is retried. */
const loseAnswerFor = new Set<string>();
const platform = new Proxy({} as Platform, {
  get: (_target, name: keyof Platform) =>
    async (...args: unknown[]) => {
      const result = await (createLocalPlatform(bed.db())[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      if (name === 'changeRole' && loseAnswerFor.delete(args[2] as string)) throw new Error('connection reset after the role change');
      return result;
    },
});
const bed = useWorkflowTestBed({ worker: { platform } });
const { db, app, gateway } = bed;

async function milestoneGuild() {
  const guild = await createTestGuild(db());
  const { key } = await createTestKey(db(), guild, { scopes: ['invites:read', 'invites:write'] });
  const [three, five, ten] = [snowflake(), snowflake(), snowflake()];
  await addInviteMilestone(db(), guild.id, { invites: 3, roleId: three });
  await addInviteMilestone(db(), guild.id, { invites: 5, roleId: five });
  await addInviteMilestone(db(), guild.id, { invites: 10, roleId: ten });
  const userId = await addTestMember(db(), guild);
  return { guild, key, userId, roles: { three, five, ten } };
}

const postBonus = (guild: TestGuild, key: string, userId: string, amount: number) =>
  app.http('POST', `/guilds/${guild.id}/invites/members/${userId}/bonus`, { headers: bearer(key), body: { amount } });
const checks = (guild: TestGuild) => db().selectFrom('invite_milestone_checks').selectAll().where('guild_id', '=', guild.id).orderBy('id').execute();
const grants = (guild: TestGuild) => db().selectFrom('invite_milestone_grants').selectAll().where('guild_id', '=', guild.id).orderBy('invites').execute();
const roleChanges = (guild: TestGuild) => db().selectFrom('platform_role_changes').selectAll().where('guild_id', '=', guild.id).execute();
/** The run's result once its start (after the response, or by the relay) is recorded. */
async function result(guildId: string, checkId: number) {
  await eventually(
    () => db().selectFrom('invite_milestone_checks').select('workflow_started_at').where('id', '=', checkId).executeTakeFirstOrThrow(),
    (c) => c.workflow_started_at !== null,
  );
  return gateway.client.workflow.getHandle(inviteMilestonesWorkflowId(guildId, checkId)).result();
}

describe('invite milestone rewards', () => {
  it('grants every milestone a bonus reaches, each exactly once although the platform answer was lost', async () => {
    const { guild, key, userId, roles } = await milestoneGuild();
    loseAnswerFor.add(roles.three);
    expect((await postBonus(guild, key, userId, 6)).status).toBe(201);
    const [check] = await checks(guild);
    expect(check).toBeDefined();
    expect(await result(guild.id, check!.id)).toEqual({ granted: [roles.three, roles.five], refused: [] });
    expect((await checks(guild))[0]!.workflow_started_at).not.toBeNull();
    expect(loseAnswerFor.size).toBe(0); // the first attempt failed after the change: the retry found it done

    expect((await findPlatformMember(db(), guild.id, userId))!.role_ids.sort()).toEqual([roles.three, roles.five].sort());
    expect((await grants(guild)).map((g) => [g.role_id, g.invites])).toEqual([
      [roles.three, 3],
      [roles.five, 5],
    ]);
    expect(await roleChanges(guild)).toHaveLength(2);

    // Nothing new reached: no check, no workflow.
    expect((await postBonus(guild, key, userId, 1)).status).toBe(201);
    expect(await checks(guild)).toHaveLength(1);
  });

  it('keeps the roles when the count drops and does not grant them again when it rises', async () => {
    const { guild, key, userId, roles } = await milestoneGuild();
    await postBonus(guild, key, userId, 3);
    const [first] = await checks(guild);
    expect(await result(guild.id, first!.id)).toEqual({ granted: [roles.three], refused: [] });
    await postBonus(guild, key, userId, -3);
    expect((await findPlatformMember(db(), guild.id, userId))!.role_ids).toEqual([roles.three]);
    await postBonus(guild, key, userId, 3);
    expect(await checks(guild)).toHaveLength(1);
    await postBonus(guild, key, userId, 7);
    const [, second] = await checks(guild);
    expect(await result(guild.id, second!.id)).toEqual({ granted: [roles.five, roles.ten], refused: [] });
    expect(await grants(guild)).toHaveLength(3);
    expect(await roleChanges(guild)).toHaveLength(3);
  });

  it('grants after a verified join through the start relay, and skips an inviter who left the server', async () => {
    const { guild, userId: inviter, roles } = await milestoneGuild();
    await db().updateTable('invite_milestones').set({ invites: 1 }).where('guild_id', '=', guild.id).where('role_id', '=', roles.three).execute();
    const joined = snowflake();
    const actor = { type: 'system' } as const;
    await db()
      .transaction()
      .execute((trx) =>
        joinThroughInvite(trx, { guildId: guild.id, userId: joined, username: 'new', bot: false, roleIds: [], inviterId: inviter, inviteCode: null, at: new Date(), actor }),
      );
    expect(await checks(guild)).toHaveLength(0); // pending joins do not count
    await db()
      .transaction()
      .execute((trx) => judgeInviteJoin(trx, { guildId: guild.id, userId: joined, verdict: 'verify', at: new Date(Date.now() - 1_000), actor }));
    const [check] = await checks(guild);
    expect(check).toMatchObject({ user_id: inviter, workflow_started_at: null });

    await relayUnstarted({ db: db(), temporal: gateway, clock: systemClock }, milestoneOperation, { graceMs: 0, batch: 10 });
    expect(await result(guild.id, check!.id)).toEqual({ granted: [roles.three], refused: [] });
    await eventually(
      () => findPlatformMember(db(), guild.id, inviter),
      (m) => m?.role_ids.includes(roles.three) === true,
    );

    // An inviter who is no longer in the server is skipped and not recorded (a rejoin can still earn it). The
    // check is dated a second back: the relay takes only checks strictly older than its pass.
    const gone = snowflake();
    await db().insertInto('invite_members').values({ guild_id: guild.id, user_id: gone, verified: 2, total: 2, updated_at: new Date() }).execute();
    const orphan = await db().insertInto('invite_milestone_checks').values({ guild_id: guild.id, user_id: gone, created_at: new Date(Date.now() - 1_000) }).returning('id').executeTakeFirstOrThrow();
    await relayUnstarted({ db: db(), temporal: gateway, clock: systemClock }, milestoneOperation, { graceMs: 0, batch: 10 });
    expect(await result(guild.id, orphan.id)).toEqual({ granted: [], refused: [] });
    expect((await grants(guild)).map((g) => g.user_id)).toEqual([inviter]);
  });
});
