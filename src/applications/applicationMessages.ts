import type { ComposedMessage } from '../core/platform.js';

const ACCEPTED = 0x57f287;
const DENIED = 0xed4245;
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The applicant's DM about the decision on their submission: a card, green when accepted, red when denied. */
export function applicationDirectMessage(d: {
  guildName: string;
  formTitle: string | null;
  number: number;
  accepted: boolean;
  reason: string | null;
  reapplyAfter: Date | null;
}): ComposedMessage {
  const what = d.formTitle ? `Your application "${d.formTitle}" (#${d.number})` : `Your application #${d.number}`;
  const lines = [`${what} in ${d.guildName} was ${d.accepted ? 'accepted' : 'denied'}.`];
  if (d.reason) lines.push(`Reason: ${d.reason}`);
  if (d.reapplyAfter) lines.push(`You can apply again after <t:${unix(d.reapplyAfter)}:f> (<t:${unix(d.reapplyAfter)}:R>).`);
  return {
    content: '',
    embeds: [{ title: `Application ${d.accepted ? 'accepted' : 'denied'}`, description: lines.join('\n'), color: d.accepted ? ACCEPTED : DENIED }],
    mentions: { userIds: [], roleIds: [] },
  };
}

/** The public announcement of an accepted applicant. */
export const applicationAnnouncement = (d: { userId: string; formTitle: string | null }) =>
  `Welcome <@${d.userId}>: your application${d.formTitle ? ` "${d.formTitle}"` : ''} was accepted!`;

/** The line added to the staff review channel when a submission is decided. */
export function applicationReviewLine(d: { number: number; userId: string; accepted: boolean; reason: string | null }): string {
  return `Application #${d.number} by <@${d.userId}>: ${d.accepted ? 'accepted' : 'denied'} through the API${d.reason ? ` (${d.reason})` : ''}.`;
}

const REVIEW_ANSWER_CHARS = 300;
const REVIEW_MESSAGE_CHARS = 2000;

/**
 * The bot's review message of a submission in the form's review channel: the answers, then the status line.
 * Posted when the submission is made and edited when it is decided; kept under the platform's 2,000 characters.
 */
export function applicationReviewMessage(d: {
  number: number;
  userId: string;
  formTitle: string | null;
  answers: ReadonlyArray<{ label: string; text: string }>;
  status: string;
  reason: string | null;
}): string {
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const status = d.status === 'accepted' || d.status === 'denied' ? `${d.status} through the API${d.reason ? ` (${d.reason})` : ''}` : d.status;
  const head = `Application #${d.number} by <@${d.userId}>${d.formTitle ? ` to "${d.formTitle}"` : ''}`;
  const answers = d.answers.map((a) => `**${a.label}**\n${clip(a.text, REVIEW_ANSWER_CHARS)}`);
  const tail = clip(`Status: ${status}`, 1200);
  return `${clip([head, ...answers].join('\n'), REVIEW_MESSAGE_CHARS - tail.length - 1)}\n${tail}`;
}
