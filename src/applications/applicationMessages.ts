/** The applicant's DM about the decision on their submission. */
export function applicationDirectMessage(d: { guildName: string; formTitle: string | null; number: number; accepted: boolean; reason: string | null; reapplyAfter: Date | null }): string {
  const what = d.formTitle ? `Your application "${d.formTitle}" (#${d.number})` : `Your application #${d.number}`;
  const lines = [`${what} in ${d.guildName} was ${d.accepted ? 'accepted' : 'denied'}.`];
  if (d.reason) lines.push(`Reason: ${d.reason}`);
  if (d.reapplyAfter) lines.push(`You can apply again after ${d.reapplyAfter.toISOString()}.`);
  return lines.join('\n');
}

/** The public announcement of an accepted applicant. */
export const applicationAnnouncement = (d: { userId: string; formTitle: string | null }) =>
  `Welcome <@${d.userId}>: your application${d.formTitle ? ` "${d.formTitle}"` : ''} was accepted!`;

/** The line added to the staff review channel when a submission is decided. */
export function applicationReviewLine(d: { number: number; userId: string; accepted: boolean; reason: string | null }): string {
  return `Application #${d.number} by <@${d.userId}>: ${d.accepted ? 'accepted' : 'denied'} through the API${d.reason ? ` (${d.reason})` : ''}.`;
}
