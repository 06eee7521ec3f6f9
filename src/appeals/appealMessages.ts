import type { ComposedMessage } from '../core/platform.js';

const APPROVED = 0x57f287;
const REJECTED = 0xed4245;
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The appellant's DM about the decision on their appeal: a card, green when approved, red when rejected. */
export function appealDirectMessage(d: {
  guildName: string;
  number: number;
  approved: boolean;
  reason: string | null;
  inviteUrl: string | null;
  reappealAfter: Date | null;
}): ComposedMessage {
  const lines = [`Your ban appeal #${d.number} in ${d.guildName} was ${d.approved ? 'approved' : 'rejected'}.`];
  if (d.reason) lines.push(`Reason: ${d.reason}`);
  if (d.inviteUrl) lines.push(`You are unbanned. Join again: ${d.inviteUrl}`);
  if (d.reappealAfter) lines.push(`You can appeal again after <t:${unix(d.reappealAfter)}:f> (<t:${unix(d.reappealAfter)}:R>).`);
  return {
    content: '',
    embeds: [{ title: `Ban appeal ${d.approved ? 'approved' : 'rejected'}`, description: lines.join('\n'), color: d.approved ? APPROVED : REJECTED }],
    mentions: { userIds: [], roleIds: [] },
  };
}
