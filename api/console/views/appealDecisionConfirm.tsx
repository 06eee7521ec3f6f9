import type { AppealSettings } from '../../../db/appeals/settings.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { DecisionConfirmPage, type DecisionConfirmation } from './decisionConfirmPage.js';
import { durationText } from './durationText.js';
import type { Viewer } from './layout.js';

/**
 * What an appeal's decision does, as decideAppeal and the decision's workflow (workflows/appealDecision.ts) apply it:
 * approving lifts the ban, records the unban case when Moderation is on, sends a single-use invite by DM; rejecting
 * keeps the ban, sends the reason when the settings say so and starts the re-appeal wait.
 */
function effectsOf(p: { verb: 'approve' | 'reject'; appellant: string; moderation: boolean; settings: AppealSettings }): string[] {
  const { appellant, settings } = p;
  if (p.verb === 'approve') {
    return [
      `${appellant}'s ban is lifted on Discord (when they are still banned).`,
      p.moderation
        ? 'An unban case is recorded in Moderation with you as the moderator and your reason.'
        : 'No moderation case is recorded: Moderation is off in this server.',
      `${appellant} is sent a direct message with your reason and a single-use invite back to the server.`,
      "Your reason is added to the appeal's conversation.",
    ];
  }
  return [
    `${appellant} stays banned.`,
    settings.rejectionDm ? `${appellant} is sent a direct message with your reason.` : 'No direct message is sent: the appeal settings turn rejection messages off.',
    settings.reappealCooldownSeconds > 0 ? `${appellant} may appeal again after ${durationText(settings.reappealCooldownSeconds)}.` : `${appellant} may appeal again at once.`,
    "Your reason is added to the appeal's conversation.",
  ];
}

/** Before approving or rejecting an appeal: the verdict, the reason and what it will do. */
export function ConfirmAppealDecisionPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  number: number;
  appellant: string;
  verdict: { verb: 'approve' | 'reject'; reason: string };
  settings: AppealSettings;
  confirm: DecisionConfirmation;
}) {
  const { verb, reason } = props.verdict;
  const word = verb === 'approve' ? 'Approve' : 'Reject';
  const moderation = props.guild.features.includes('moderation');
  return (
    <DecisionConfirmPage
      viewer={props.viewer}
      guild={props.guild}
      active="appeals"
      question={`${word} appeal #${props.number} by ${props.appellant}?`}
      verdict={verb}
      reason={reason}
      effects={effectsOf({ verb, appellant: props.appellant, moderation, settings: props.settings })}
      button={verb === 'approve' ? 'Approve and unban' : 'Reject the appeal'}
      confirm={props.confirm}
    />
  );
}
