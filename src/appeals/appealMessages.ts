/** The appellant's DM about the decision on their appeal. */
export function appealDirectMessage(d: {
  guildName: string;
  number: number;
  approved: boolean;
  reason: string | null;
  inviteUrl: string | null;
  reappealAfter: Date | null;
}): string {
  const lines = [`Your ban appeal #${d.number} in ${d.guildName} was ${d.approved ? 'approved' : 'rejected'}.`];
  if (d.reason) lines.push(`Reason: ${d.reason}`);
  if (d.inviteUrl) lines.push(`You are unbanned. Join again: ${d.inviteUrl}`);
  if (d.reappealAfter) lines.push(`You can appeal again after ${d.reappealAfter.toISOString()}.`);
  return lines.join('\n');
}
