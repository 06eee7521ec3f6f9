import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { ModActionBody } from '../../../src/moderation/contract.js';
import type { ModActionType } from '../../../src/moderation/refusalRules.js';
import { MOD_FIELDS, type ModActionInput } from './modActionFields.js';
import { durationText } from './durationText.js';
import { FormFields } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { casePath, moderationPath, nav } from './moderationPages.js';
import { refusalText } from './modRefusalText.js';

export const actionsPath = (guildId: string) => `${moderationPath(guildId)}/actions`;
export const actionPath = (guildId: string, actionId: string) => `${actionsPath(guildId)}/${actionId}`;
export const CONFIRMED_FIELD = 'mod-confirmed';

export const ACTION_LABELS: Record<ModActionType, string> = {
  warn: 'Warn',
  timeout: 'Time out',
  untimeout: 'Lift a timeout',
  kick: 'Kick',
  ban: 'Ban',
  unban: 'Lift a ban',
};
export const DELETE_LABELS: Record<number, string> = { 0: "Don't delete any", 3_600: 'The last hour', 21_600: 'The last 6 hours', 86_400: 'The last day', 259_200: 'The last 3 days', 604_800: 'The last 7 days' };

/** What the confirmed action will do, in words. */
function effectOf(input: ModActionInput, name: string): string {
  const { durationSeconds, deleteMessageSeconds } = input.request;
  if (input.action === 'timeout') return `${name} cannot write, talk or react for ${durationText(durationSeconds!)}.`;
  if (input.action === 'kick') return `${name} is removed from the server; they can join again with an invite.`;
  const ban = durationSeconds ? `${name} is banned for ${durationText(durationSeconds)}; the bot lifts the ban when it runs out.` : `${name} is banned until someone lifts the ban.`;
  return deleteMessageSeconds ? `${ban} Their messages of ${DELETE_LABELS[deleteMessageSeconds]?.toLowerCase() ?? durationText(deleteMessageSeconds)} are deleted.` : ban;
}

/** The confirmation before a kick, ban or timeout: the form's values sent again with the confirmation. */
export function ConfirmModActionPage(props: { viewer: Viewer; guild: GuildRecord; input: ModActionInput; name: string; values: URLSearchParams }) {
  const { guild, input, name } = props;
  const action = actionsPath(guild.id);
  const kept = Object.values(MOD_FIELDS).filter((f) => props.values.has(f));
  return (
    <Layout title={`${ACTION_LABELS[input.action]} ${name}?`} viewer={props.viewer} server={nav(guild)}>
      <p data-confirm={input.action}>{effectOf(input, name)}</p>
      <dl>
        <dt>Member</dt>
        <dd>
          {name} <span class="muted">({input.userId})</span>
        </dd>
        <dt>Reason</dt>
        <dd>{input.request.reason ?? '—'}</dd>
      </dl>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        {kept.map((f) => (
          <input type="hidden" name={f} value={props.values.get(f) ?? ''} />
        ))}
        <input type="hidden" name={CONFIRMED_FIELD} value="yes" />
        <button type="submit" class="danger">
          {ACTION_LABELS[input.action]} {name}
        </button>{' '}
        <a href={moderationPath(guild.id)}>Cancel</a>
      </form>
    </Layout>
  );
}

const STATUS_TEXT = { pending: 'Accepted; the bot starts it in a moment.', running: 'The bot is carrying it out.', done: 'Done.', failed: 'Refused.' } as const;

/** An action asked from the console and where it stands (as GET .../moderation/actions/{actionId} says). */
export function ModActionStatusPage(props: { viewer: Viewer; guild: GuildRecord; action: ModActionBody; name: string }) {
  const { guild, action: a } = props;
  const open = a.status === 'pending' || a.status === 'running';
  return (
    <Layout title={`${ACTION_LABELS[a.action]} ${props.name}`} viewer={props.viewer} server={nav(guild)}>
      <dl>
        <dt>Status</dt>
        <dd data-status={a.status}>
          {a.status}: {STATUS_TEXT[a.status]}
        </dd>
        {a.caseNumber !== null && (
          <>
            <dt>Case</dt>
            <dd>
              <a href={casePath(guild.id, a.caseNumber)}>#{a.caseNumber}</a>
            </dd>
          </>
        )}
        {a.error && (
          <>
            <dt>Why</dt>
            <dd data-error={a.error}>
              {refusalText(a.error)} <span class="muted">({a.error})</span>
            </dd>
          </>
        )}
        <dt>Asked</dt>
        <dd>{a.requestedAt ? isoTime(new Date(a.requestedAt)) : '—'}</dd>
      </dl>
      <p>
        {open && (
          <>
            <a href={actionPath(guild.id, a.actionId)}>Refresh</a> ·{' '}
          </>
        )}
        <a href={moderationPath(guild.id)}>Back to the cases</a>
      </p>
    </Layout>
  );
}
