import { findForm } from '../db/applications/forms.js';
import { findSubmission, finishSubmissionDecision, type FailedSubmissionAction } from '../db/applications/submissions.js';
import { findGuild } from '../db/guild/guilds.js';
import { applicationAnnouncement, applicationDirectMessage, applicationReviewLine, applicationReviewMessage } from '../src/applications/applicationMessages.js';
import { postReviewMessage } from '../src/applications/postReviewMessage.js';
import type { ActivityDeps } from './deps.js';
import { refuse } from './refusal.js';

export type ApplicationsActivities = ReturnType<typeof createApplicationsActivities>;

export function createApplicationsActivities(deps: ActivityDeps) {
  const { db, platform } = deps;

  async function load(guildId: string, number: number) {
    const submission = await findSubmission(db, guildId, number);
    if (!submission) throw refuse('APPLICATION_NOT_FOUND', `Application ${number} does not exist.`);
    const form = submission.formId === null ? undefined : await findForm(db, guildId, submission.formId);
    return { submission, form };
  }

  return {
    /**
     * An accepted applicant gets the form's roles and loses its removed roles (set operations, so a retry
     * changes nothing twice); a denial changes no roles. Refused with MEMBER_NOT_FOUND when they left.
     */
    async applyApplicationRoles(guildId: string, number: number): Promise<void> {
      const { submission, form } = await load(guildId, number);
      if (submission.status !== 'accepted' || !form) return;
      if (form.acceptRoleIds.length + form.removeRoleIds.length === 0) return;
      if (!(await platform.getMember(guildId, submission.userId))) throw refuse('MEMBER_NOT_FOUND', 'The applicant left the server.');
      const reason = `Application #${number} accepted`;
      for (const roleId of form.acceptRoleIds) await platform.changeRole(guildId, submission.userId, roleId, 'add', reason);
      for (const roleId of form.removeRoleIds) await platform.changeRole(guildId, submission.userId, roleId, 'remove', reason);
    },

    /** The decision's DM to the applicant, sent once. */
    async notifyApplicant(guildId: string, number: number): Promise<'sent' | 'failed'> {
      const { submission } = await load(guildId, number);
      const guild = await findGuild(db, guildId);
      const message = applicationDirectMessage({
        guildName: guild?.name ?? 'the server',
        formTitle: submission.formTitle,
        number,
        accepted: submission.status === 'accepted',
        reason: submission.reason,
        reapplyAfter: submission.reapplyAfter,
      });
      return platform.sendDirectMessage(guildId, submission.userId, message.content, `application-dm/${guildId}/${number}`, message);
    },

    /** Announces an accepted applicant in the form's announcement channel (none: nothing to do). */
    async announceApplication(guildId: string, number: number): Promise<void> {
      const { submission, form } = await load(guildId, number);
      if (submission.status !== 'accepted' || !form?.announceChannelId) return;
      await platform.postMessage(
        guildId,
        form.announceChannelId,
        applicationAnnouncement({ userId: submission.userId, formTitle: submission.formTitle }),
        `application-announce/${guildId}/${number}`,
      );
    },

    /**
     * Edits the submission's review message to show the decision (posting it first when it never was; no
     * review channel: nothing to do). Refused with MESSAGE_NOT_FOUND when staff deleted the message.
     */
    async editApplicationReview(guildId: string, number: number): Promise<void> {
      const message = await postReviewMessage(deps, guildId, number);
      if (!message) return;
      const { submission } = await load(guildId, number);
      const edited = await platform.editMessage(guildId, message.channelId, message.messageId, applicationReviewMessage(submission));
      if (!edited) throw refuse('MESSAGE_NOT_FOUND', `The review message of application ${number} is gone.`);
    },

    /** Decisions started before the review message existed (patch 'review-message-edit') post a line instead. */
    async updateApplicationReview(guildId: string, number: number): Promise<void> {
      const { submission, form } = await load(guildId, number);
      if (!form?.reviewChannelId) return;
      await platform.postMessage(
        guildId,
        form.reviewChannelId,
        applicationReviewLine({ number, userId: submission.userId, accepted: submission.status === 'accepted', reason: submission.reason }),
        `application-review/${guildId}/${number}`,
      );
    },

    async finishApplicationDecision(guildId: string, number: number, failed: FailedSubmissionAction[]): Promise<void> {
      await finishSubmissionDecision(db, guildId, number, failed);
    },
  };
}
