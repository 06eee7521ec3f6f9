import { patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { ApplicationsActivities } from '../activities/applications.js';
import type { ApplicationDecisionInput, FailedSubmissionAction } from '../src/applications/ids.js';
import { BOUNDED_PLATFORM_EFFECT, DATABASE_STEP } from './activityProfiles.js';
import { failureCollector } from './effectFailures.js';

const steps = proxyLocalActivities<ApplicationsActivities>(DATABASE_STEP);
// The decision already stands: an effect that keeps failing is recorded in failedActions, the others still run.
const effects = proxyActivities<ApplicationsActivities>(BOUNDED_PLATFORM_EFFECT);
/** Runs from here on edit the submission's review message; older runs post a line under it. */
const REVIEW_MESSAGE_EDIT_PATCH = 'review-message-edit';

/**
 * Applies a decided submission on the platform: the form's roles (accepted only), the DM to the applicant,
 * the announcement (accepted only) and the review message, edited to show the decision. Each effect runs
 * whatever the others did.
 */
export async function applicationDecision({ guildId, number }: ApplicationDecisionInput): Promise<{ failedActions: FailedSubmissionAction[] }> {
  const { failed: failedActions, attempt } = failureCollector<FailedSubmissionAction['type']>();
  await attempt('roles', () => effects.applyApplicationRoles(guildId, number));
  await attempt('dm', () => effects.notifyApplicant(guildId, number));
  await attempt('announce', () => effects.announceApplication(guildId, number));
  if (patched(REVIEW_MESSAGE_EDIT_PATCH)) await attempt('review', () => effects.editApplicationReview(guildId, number));
  else await attempt('review', () => effects.updateApplicationReview(guildId, number));
  await steps.finishApplicationDecision(guildId, number, failedActions);
  return { failedActions };
}

