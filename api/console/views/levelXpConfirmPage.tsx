import type { z } from 'zod';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { applyXpChange, levelFromXp } from '../../../src/levels/curve.js';
import type { LevelMember, XpChangeRequest } from '../../../src/levels/contract.js';
import { FormFields } from './formParts.js';
import { Layout, type Viewer } from './layout.js';

export const levelMemberPath = (guildId: string, userId: string) => `/console/servers/${guildId}/levels/members/${userId}`;
/** The confirmation of a removal or a set: its page (GET, the values in the query) and its action (POST). */
export const xpConfirmPath = (guildId: string, userId: string) => `${levelMemberPath(guildId, userId)}/xp-changes/confirm`;

type Change = z.infer<typeof XpChangeRequest>;

const count = (n: number) => n.toLocaleString('en-US');

/** The change in words, as a question (the page's title) and as its button. */
function wordsOf(change: Change, name: string): { question: string; button: string } {
  const amount = change.unit === 'xp' ? `${count(change.amount)} XP` : `${count(change.amount)} level${change.amount === 1 ? '' : 's'}`;
  if (change.type === 'set') {
    const to = change.unit === 'xp' ? `${count(change.amount)} XP` : `level ${count(change.amount)}`;
    return { question: `Set ${name} to ${to}?`, button: `Set to ${to}` };
  }
  if (change.type === 'remove') return { question: `Remove ${amount} from ${name}?`, button: `Remove ${amount}` };
  return { question: `Add ${amount} to ${name}?`, button: `Add ${amount}` };
}

/**
 * Before a removal or a set: what the member's XP and level become by the curve's own rule (applyXpChange), and the
 * form's values sent again to the confirmation's action; Cancel takes them back to the form.
 */
export function ConfirmXpChangePage(props: { viewer: Viewer; guild: GuildRecord; member: z.infer<typeof LevelMember>; name: string; change: Change; values: URLSearchParams }) {
  const { guild, member, change } = props;
  const action = xpConfirmPath(guild.id, member.userId);
  const after = applyXpChange(member.xp, change);
  const { question, button } = wordsOf(change, props.name);
  const levelAfter = levelFromXp(after).level;
  return (
    <Layout title={question} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'levels' }}>
      <p data-confirm-xp-change={change.type}>
        {props.name} goes from {count(member.xp)} XP (level {member.level}) to <strong data-xp-after={after}>{count(after)} XP (level {levelAfter})</strong>
        {change.reason ? <>, with the reason "{change.reason}"</> : ', with no reason'}.
      </p>
      <p class="muted">
        {levelAfter < member.level ? 'Reward roles above the new level are taken away. ' : ''}The bot applies the change within seconds to the XP the
        member has then; the audit log records it with your name.
      </p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        {[...props.values].map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <button type="submit" class="danger">
          {button}
        </button>{' '}
        <a href={`${levelMemberPath(guild.id, member.userId)}?${props.values.toString()}`}>Cancel</a>
      </form>
    </Layout>
  );
}
