import type { Kysely } from 'kysely';
import { addInviteMilestone } from '../../db/invites/milestones.js';
import { adjustInviter, insertInviteJoin } from '../../db/invites/joins.js';
import type { Database } from '../../db/schema.js';
import { addBonusInvites } from '../../src/invites/addBonusInvites.js';
import { nextBucket } from '../../src/invites/joinBuckets.js';
import { judgeInviteJoin } from '../../src/invites/judgeInviteJoin.js';
import { endInviteSeason, startInviteSeason } from '../../src/invites/seasons.js';

const DAY = 86_400_000;
const actor = { type: 'system' } as const;

type Verdict = 'verify' | 'fake' | null;

/**
 * Invite tracking of the demo guild: members 20 to 39 joined through the invites of members 0 to 3, most of them
 * verified (some before season 1, some in it, the rest in the active season 2), one fake, two still pending; bonus
 * invites in both seasons; a milestone (5 invites: the VIP role), which the worker grants once the demo runs.
 * Seeded once: nothing is added when the guild already has attributed joins.
 */
export async function seedDemoInvites(db: Kysely<Database>, guildId: string, ids: { member: (i: number) => string; vipRole: string }, now: Date): Promise<void> {
  const seeded = await db.selectFrom('invite_joins').select('user_id').where('guild_id', '=', guildId).limit(1).executeTakeFirst();
  if (seeded) return;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
  const inviters = [ids.member(0), ids.member(1), ids.member(2), ids.member(3)];
  const plan: Array<{ user: number; inviter: number; verdict: Verdict; phase: 0 | 1 | 2 }> = [
    ...[20, 21, 22, 23].map((user) => ({ user, inviter: 0, verdict: 'verify' as Verdict, phase: 0 as const })),
    ...[24, 25, 26].map((user) => ({ user, inviter: 0, verdict: 'verify' as Verdict, phase: 2 as const })),
    ...[27, 28, 29].map((user) => ({ user, inviter: 1, verdict: 'verify' as Verdict, phase: 1 as const })),
    { user: 30, inviter: 1, verdict: 'fake', phase: 1 },
    ...[31, 32, 33, 34].map((user) => ({ user, inviter: 2, verdict: 'verify' as Verdict, phase: 2 as const })),
    ...[35, 36].map((user) => ({ user, inviter: 3, verdict: 'verify' as Verdict, phase: 1 as const })),
    { user: 37, inviter: 3, verdict: null, phase: 2 },
    { user: 38, inviter: 2, verdict: null, phase: 2 },
    { user: 39, inviter: 3, verdict: 'verify', phase: 0 },
  ];
  await db.transaction().execute(async (trx) => {
    await addInviteMilestone(trx, guildId, { invites: 5, roleId: ids.vipRole });
    for (const p of plan) {
      const joinedAt = at([40, 20, 5][p.phase]!);
      await insertInviteJoin(trx, { guildId, userId: ids.member(p.user), inviterId: inviters[p.inviter]!, inviteCode: `demo${p.inviter}`, joinedAt });
      await adjustInviter(trx, guildId, inviters[p.inviter]!, nextBucket(undefined, 'join')!.delta, joinedAt);
    }
    const judge = async (phase: number, when: Date) => {
      for (const p of plan.filter((q) => q.phase === phase && q.verdict)) {
        await judgeInviteJoin(trx, { guildId, userId: ids.member(p.user), verdict: p.verdict!, at: when, actor });
      }
    };
    await judge(0, at(35));
    await startInviteSeason(trx, { guildId, name: 'Autumn', at: at(30), actor });
    await judge(1, at(18));
    await addBonusInvites(trx, { guildId, userId: inviters[1]!, amount: 2, reason: 'Event host', actor, at: at(17) });
    await endInviteSeason(trx, { guildId, at: at(10), actor });
    await startInviteSeason(trx, { guildId, name: 'Winter', at: at(9), actor });
    await judge(2, at(4));
    await addBonusInvites(trx, { guildId, userId: inviters[2]!, amount: 3, reason: 'Partner server', actor, at: at(3) });
  });
}
