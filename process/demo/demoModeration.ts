import type { Kysely } from 'kysely';
import { addAppealMessage, type AppealAnswer } from '../../db/appeals/appeals.js';
import { addCaseEvent, resolveCase, type NewCase } from '../../db/moderation/cases.js';
import { saveEscalationRule, saveModerationSettings } from '../../db/moderation/settings.js';
import { saveAppealSettings } from '../../db/appeals/settings.js';
import { banPlatformUser } from '../../db/platform/moderation.js';
import type { Database } from '../../db/schema.js';
import { fileAppeal } from '../../src/appeals/fileAppeal.js';
import { recordCase } from '../../src/moderation/recordCase.js';

/** Users of the demo's moderation history who are no longer members (kicked or banned). */
const FORMER = {
  kicked: '1100000000000001100',
  raider: '1100000000000001101',
  scammer: '1100000000000001102',
  harasser: '1100000000000001103',
  rejected: '1100000000000001104',
};
const MODERATOR = '1100000000000001002';
const ADMIN = '1100000000000001000';
const WARNED = '1100000000000001020';
const TIMED_OUT = '1100000000000001021';

const DAY = 86_400_000;

type DemoCase = Pick<NewCase, 'action' | 'userId' | 'reason' | 'source'> & Partial<Pick<NewCase, 'durationSeconds' | 'evidence' | 'userTag'>> & {
  daysAgo: number;
  moderatorId?: string;
  /** Ends the case this long after it began, as its timer would have. */
  expiredAfterSeconds?: number;
};

const CASES: DemoCase[] = [
  { action: 'warn', userId: WARNED, reason: 'Invite links in #general', source: 'command', daysAgo: 20 },
  { action: 'timeout', userId: TIMED_OUT, reason: 'Arguing after a warning', source: 'command', durationSeconds: 3600, daysAgo: 15, expiredAfterSeconds: 3600 },
  { action: 'warn', userId: WARNED, reason: 'Mass mentions', source: 'automod', daysAgo: 12, moderatorId: '1100000000000000003' },
  { action: 'kick', userId: FORMER.kicked, userTag: 'spammy', reason: 'Advertising in DMs', source: 'command', daysAgo: 10, evidence: ['https://example.com/evidence/dm.png'] },
  { action: 'ban', userId: FORMER.raider, userTag: 'raider01', reason: 'Raid wave', source: 'antiraid', daysAgo: 9, moderatorId: '1100000000000000003' },
  { action: 'ban', userId: FORMER.scammer, userTag: 'freenitro', reason: 'Scam links', source: 'command', daysAgo: 6 },
  { action: 'ban', userId: FORMER.harasser, userTag: 'loudmouth', reason: 'Harassing members', source: 'console', daysAgo: 5, moderatorId: ADMIN },
  { action: 'ban', userId: FORMER.rejected, userTag: 'repeat', reason: 'Repeated slurs', source: 'command', daysAgo: 40 },
];

const answers = (why: string, what: string): AppealAnswer[] => [
  { id: 'why', type: 'paragraph', label: 'Why were you banned?', value: why },
  { id: 'change', type: 'paragraph', label: 'Why should we unban you?', value: what },
];

/**
 * The demo server's moderation history: settings (mod log, DMs, 3 warnings mean a 1 h timeout), cases from
 * every source with timelines, platform bans, and appeals in each state, so the moderation and appeal
 * endpoints have something to show. Seeded once: a server that already has moderation settings is left as it is.
 */
export async function seedDemoModeration(
  db: Kysely<Database>,
  guildId: string,
  channels: { modLog: string; invites: string },
  now: Date,
): Promise<void> {
  if (await hasModerationSettings(db, guildId)) return;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);

  for (const c of CASES.filter((c) => c.action === 'ban')) await banPlatformUser(db, { guildId, userId: c.userId, reason: c.reason });

  await db.transaction().execute(async (trx) => {
    const caseNumbers = new Map<string, number>();
    for (const c of CASES) {
      const createdAt = at(c.daysAgo);
      const durationSeconds = c.durationSeconds ?? null;
      const { number } = await recordCase(
        trx,
        {
          guildId,
          action: c.action,
          userId: c.userId,
          userTag: c.userTag ?? null,
          moderatorId: c.moderatorId ?? MODERATOR,
          reason: c.reason,
          durationSeconds,
          evidence: c.evidence ?? [],
          source: c.source,
          active: c.action === 'warn' || c.action === 'timeout',
          expiresAt: durationSeconds ? new Date(createdAt.getTime() + durationSeconds * 1000) : null,
          dmStatus: c.source === 'antiraid' ? 'off' : 'sent',
          apiKey: null,
          operationId: null,
          createdAt,
        },
        { type: 'system' },
      );
      if (c.source !== 'antiraid') await addCaseEvent(trx, { guildId, caseNumber: number, type: 'dm', actorId: null, data: { status: 'sent' }, at: createdAt });
      if (c.expiredAfterSeconds) {
        await resolveCase(trx, { guildId, caseNumber: number, how: 'expired', actorId: null, at: new Date(createdAt.getTime() + c.expiredAfterSeconds * 1000) });
      }
      caseNumbers.set(c.userId, number);
    }

    const appeal = async (userId: string, daysAgo: number, why: string, what: string) => {
      const c = CASES.find((c) => c.userId === userId)!;
      const { number } = await fileAppeal(trx, {
        guildId,
        userId,
        userTag: c.userTag ?? null,
        banCaseNumber: caseNumbers.get(userId) ?? null,
        banReason: c.reason,
        answers: answers(why, what),
        at: at(daysAgo),
      });
      return number;
    };

    await appeal(FORMER.scammer, 3, 'My account was hacked and posted the links.', 'I secured my account and turned on two-factor authentication.');

    const question = await appeal(FORMER.harasser, 2, 'I was rude to people.', 'I have calmed down and want to talk with my friends again.');
    await addAppealMessage(trx, { guildId, number: question, author: 'staff', authorId: MODERATOR, text: 'Will you apologise to the members involved?', at: at(1) });
    await addAppealMessage(trx, {
      guildId,
      number: question,
      author: 'staff',
      authorId: ADMIN,
      text: 'Internal: two members reported DMs after the ban too.',
      internal: true,
      at: at(1),
    });
    await trx.updateTable('appeals').set({ status: 'question', last_activity_at: at(1) }).where('guild_id', '=', guildId).where('number', '=', question).execute();

    const rejected = await appeal(FORMER.rejected, 30, 'No idea.', 'Please.');
    await trx
      .updateTable('appeals')
      .set({ status: 'rejected', decided_by: ADMIN, decided_at: at(29), reason: 'No reflection on what happened.', reappeal_after: at(-1), last_activity_at: at(29) })
      .where('guild_id', '=', guildId)
      .where('number', '=', rejected)
      .execute();
    await addAppealMessage(trx, { guildId, number: rejected, author: 'staff', authorId: ADMIN, text: 'No reflection on what happened.', at: at(29) });

    await saveAppealSettings(trx, guildId, { rejectionDm: true, reappealCooldownSeconds: 30 * 86_400, inviteChannelId: channels.invites });
    await saveEscalationRule(trx, guildId, { warnings: 3, action: 'timeout', durationSeconds: 3600 });
    // Last: the settings row marks the history as seeded.
    await saveModerationSettings(trx, guildId, { dmMembers: true, logChannelId: channels.modLog, warningExpirySeconds: null });
  });
}

async function hasModerationSettings(db: Kysely<Database>, guildId: string): Promise<boolean> {
  const row = await db.selectFrom('moderation_settings').select('guild_id').where('guild_id', '=', guildId).executeTakeFirst();
  return row !== undefined;
}
