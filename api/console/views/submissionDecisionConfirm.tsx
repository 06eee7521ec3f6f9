import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { FormRecord } from '../../../db/applications/forms.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { DecisionConfirmPage, type DecisionConfirmation } from './decisionConfirmPage.js';
import { durationText } from './durationText.js';
import type { Viewer } from './layout.js';

const rolesNamed = (directory: ServerDirectory, ids: string[]) => ids.map((id) => directory.roles.find((r) => r.id === id)?.name ?? 'a deleted role').join(', ');
const channelNamed = (directory: ServerDirectory, id: string) => `#${directory.channels.find((c) => c.id === id)?.name ?? 'a deleted channel'}`;

/**
 * What a submission's decision does, as the decision's workflow applies it (workflows/applicationDecision.ts): the
 * form's roles on an acceptance, the applicant's direct message, the announcement, the review message; and the re-apply
 * wait a denial starts (decideSubmission).
 */
function effectsOf(p: { verdict: 'accepted' | 'denied'; applicant: string; form: FormRecord | null; directory: ServerDirectory }): string[] {
  const { form, directory, applicant } = p;
  const effects: string[] = [];
  if (p.verdict === 'accepted') {
    if (!form) effects.push('The form was deleted: no role is given or removed and nothing is announced.');
    else {
      if (form.acceptRoleIds.length > 0) effects.push(`${applicant} is given the roles: ${rolesNamed(directory, form.acceptRoleIds)}.`);
      if (form.removeRoleIds.length > 0) effects.push(`${applicant} loses the roles: ${rolesNamed(directory, form.removeRoleIds)}.`);
      if (form.acceptRoleIds.length + form.removeRoleIds.length === 0) effects.push("The form gives and removes no role: the applicant's roles do not change.");
      if (form.announceChannelId) effects.push(`The acceptance is announced in ${channelNamed(directory, form.announceChannelId)}.`);
    }
  } else {
    effects.push(`${applicant}'s roles do not change.`);
    if (form) effects.push(form.reapplyCooldownSeconds > 0 ? `${applicant} may apply with this form again after ${durationText(form.reapplyCooldownSeconds)}.` : `${applicant} may apply with this form again at once.`);
  }
  effects.push(`${applicant} is sent a direct message saying the application was ${p.verdict}, with your reason.`);
  if (form?.reviewChannelId) effects.push(`The review message in ${channelNamed(directory, form.reviewChannelId)} is updated to show the decision.`);
  return effects;
}

/** Before accepting or denying a submission: the verdict, the reason and what it will do. */
export function ConfirmSubmissionDecisionPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  number: number;
  applicant: string;
  verdict: { decision: 'accepted' | 'denied'; reason: string | null };
  form: FormRecord | null;
  directory: ServerDirectory;
  confirm: DecisionConfirmation;
}) {
  const { decision, reason } = props.verdict;
  const verb = decision === 'accepted' ? 'Accept' : 'Deny';
  return (
    <DecisionConfirmPage
      viewer={props.viewer}
      guild={props.guild}
      active="applications"
      question={`${verb} application #${props.number} by ${props.applicant}?`}
      verdict={decision}
      reason={reason}
      effects={effectsOf({ verdict: decision, applicant: props.applicant, form: props.form, directory: props.directory })}
      button={`${verb} the application`}
      confirm={props.confirm}
    />
  );
}
