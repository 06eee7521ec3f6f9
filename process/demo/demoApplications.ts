import type { Kysely } from 'kysely';
import { insertForm } from '../../db/applications/forms.js';
import { castVote, type SubmissionAnswer } from '../../db/applications/submissions.js';
import type { Database } from '../../db/schema.js';
import { fileSubmission } from '../../src/applications/fileSubmission.js';
import { snowflakeCreatedAt } from '../../src/core/snowflake.js';

const DAY = 86_400_000;
const member = (i: number) => `11000000000000${String(1000 + i).padStart(5, '0')}`;
const ADMIN = member(0);
const MODERATOR = member(2);
/** The demo's Member role, which every applicant held when they applied. */
const MEMBER_ROLE = '1100000000000000107';

const STAFF_QUESTIONS = [
  { id: 'age', type: 'number', label: 'How old are you?', required: true },
  { id: 'timezone', type: 'short', label: 'Your time zone', required: true },
  { id: 'why', type: 'paragraph', label: 'Why do you want to join the staff team?', required: true },
  { id: 'experience', type: 'paragraph', label: 'Moderation experience elsewhere', required: false },
];
const HOST_QUESTIONS = [
  { id: 'event', type: 'paragraph', label: 'Describe an event you would host', required: true },
  { id: 'kind', type: 'choice', label: 'Kind of event (game night, quiz, movie, other)', required: true },
];

type Status = 'pending' | 'interview' | 'hold' | 'accepted' | 'denied' | 'withdrawn';

interface DemoSubmission {
  form: 'staff' | 'host';
  member: number;
  status: Status;
  daysAgo: number;
  answers: string[];
  votes?: Array<'up' | 'down'>;
  reason?: string;
}

const SUBMISSIONS: DemoSubmission[] = [
  { form: 'staff', member: 20, status: 'accepted', daysAgo: 30, answers: ['22', 'UTC+1', 'I am around every evening and know the rules well.', 'Helper on two gaming servers.'], votes: ['up', 'up', 'up'], reason: 'Great record, welcome!' },
  { form: 'staff', member: 21, status: 'denied', daysAgo: 25, answers: ['15', 'UTC-5', 'I want the staff color.'], votes: ['down', 'down'], reason: 'Please stay active a while longer first.' },
  { form: 'host', member: 22, status: 'accepted', daysAgo: 20, answers: ['A weekly trivia night with music rounds.', 'quiz'], votes: ['up', 'up'], reason: 'Looking forward to it.' },
  { form: 'staff', member: 23, status: 'withdrawn', daysAgo: 14, answers: ['19', 'UTC+9', 'I like helping new members.'] },
  { form: 'staff', member: 24, status: 'hold', daysAgo: 9, answers: ['27', 'UTC', 'I have time on weekends and want to give back.', 'Moderated a forum for years.'], votes: ['up', 'down'] },
  { form: 'staff', member: 25, status: 'interview', daysAgo: 5, answers: ['24', 'UTC+2', 'I answer most questions in #general already.'], votes: ['up', 'up'] },
  { form: 'host', member: 26, status: 'pending', daysAgo: 2, answers: ['Movie nights with a community vote on the film.', 'movie'], votes: ['up'] },
  { form: 'staff', member: 27, status: 'pending', daysAgo: 1, answers: ['31', 'UTC-8', 'I would like to help keep the server friendly.'] },
];

/**
 * The demo server's applications: a staff form (accepted applicants become Helpers) and an event-host form
 * (VIP), with submissions in every status, votes, and decided ones with reasons. Seeded once: a server that
 * already has application forms is left as it is.
 */
export async function seedDemoApplications(
  db: Kysely<Database>,
  guildId: string,
  ids: { helperRole: string; hostRole: string; announce: string; review: string },
  now: Date,
): Promise<void> {
  const existing = await db.selectFrom('application_forms').select('id').where('guild_id', '=', guildId).executeTakeFirst();
  if (existing) return;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
  await db.transaction().execute(async (trx) => {
    const common = { guildId, open: true, opensAt: null, reapplyCooldownSeconds: 14 * 86_400, announceChannelId: ids.announce, reviewChannelId: ids.review };
    const staff = await insertForm(trx, {
      ...common,
      title: 'Staff application',
      description: 'Help us moderate the community. Accepted applicants join the Helper team.',
      closesAt: null,
      questions: STAFF_QUESTIONS,
      acceptRoleIds: [ids.helperRole],
      removeRoleIds: [],
      createdAt: at(60),
    });
    const host = await insertForm(trx, {
      ...common,
      title: 'Event host',
      description: 'Run community events: game nights, quizzes, movie nights.',
      closesAt: at(-30),
      questions: HOST_QUESTIONS,
      acceptRoleIds: [ids.hostRole],
      removeRoleIds: [],
      createdAt: at(45),
    });
    const forms = { staff, host };
    for (const s of SUBMISSIONS) {
      const form = forms[s.form];
      const userId = member(s.member);
      const answers: SubmissionAnswer[] = s.answers.map((text, i) => ({ id: form.questions[i]!.id, type: form.questions[i]!.type, label: form.questions[i]!.label, text }));
      const submittedAt = at(s.daysAgo);
      const { number } = await fileSubmission(trx, {
        guildId,
        form,
        userId,
        answers,
        applicant: {
          accountCreatedAt: snowflakeCreatedAt(userId).toISOString(),
          joinedAt: new Date(Date.UTC(2025, s.member % 12, 1 + s.member)).toISOString(),
          roleIds: [MEMBER_ROLE],
          level: 3 + (s.member % 7),
        },
        at: submittedAt,
      });
      for (const [i, vote] of (s.votes ?? []).entries()) {
        await castVote(trx, { guildId, number, voterId: member(i), vote, at: new Date(submittedAt.getTime() + (i + 1) * 3_600_000) });
      }
      if (s.status === 'pending') continue;
      const decided = s.status === 'accepted' || s.status === 'denied';
      const decidedAt = new Date(submittedAt.getTime() + DAY);
      await trx
        .updateTable('application_submissions')
        .set({
          status: s.status,
          ...(decided
            ? {
                decided_at: decidedAt,
                decided_by: s.status === 'accepted' ? ADMIN : MODERATOR,
                reason: s.reason ?? null,
                reapply_after: s.status === 'denied' ? new Date(decidedAt.getTime() + 14 * DAY) : null,
              }
            : {}),
        })
        .where('guild_id', '=', guildId)
        .where('number', '=', number)
        .execute();
    }
  });
}
