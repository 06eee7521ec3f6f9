import type { CaseAction, ModCaseRecord } from '../../db/moderation/cases.js';
import type { ComposedMessage } from '../core/platform.js';

// A case in the server's mod log channel: a card per case, coloured by how heavy the action is, pinging no one
// (the member and the moderator are named, not called).

const COLOR: Record<CaseAction, number> = {
  warn: 0xfee75c,
  timeout: 0xf0b232,
  untimeout: 0x57f287,
  kick: 0xe67e22,
  ban: 0xed4245,
  tempban: 0xed4245,
  softban: 0xe67e22,
  unban: 0x57f287,
  note: 0x5865f2,
  purge: 0x99aab5,
};

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

export function modLogMessage(c: ModCaseRecord): ComposedMessage {
  return {
    content: '',
    embeds: [
      {
        title: `Case #${c.number} · ${c.action}`,
        color: COLOR[c.action],
        fields: [
          { name: 'Member', value: `<@${c.userId}>${c.userTag ? ` (${c.userTag})` : ''}`, inline: true },
          { name: 'Moderator', value: `<@${c.moderatorId}>`, inline: true },
          { name: 'Reason', value: c.reason ?? 'No reason given.' },
          ...(c.expiresAt ? [{ name: 'Ends', value: `<t:${unix(c.expiresAt)}:R>`, inline: true }] : []),
          ...(c.evidence.length > 0 ? [{ name: 'Evidence', value: c.evidence.join('\n') }] : []),
        ],
        footer: `User ${c.userId} · ${c.source}`,
        timestamp: c.createdAt,
      },
    ],
    mentions: { userIds: [], roleIds: [] },
  };
}
