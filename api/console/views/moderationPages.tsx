import type { GuildRecord } from '../../../db/guild/guilds.js';
import { CASE_ACTIONS, CASE_SOURCES, type ModCaseBody } from '../../../src/moderation/contract.js';
import { DataTable } from './dataTable.js';
import { isoTimeOrDash as when, Layout, type Viewer } from './layout.js';
import { MemberList, memberListId } from './memberList.js';
import { OlderLink } from './olderLink.js';
import { nameOf, type Names } from './ticketPages.js';

export const moderationPath = (guildId: string) => `/console/servers/${guildId}/moderation`;
export const casePath = (guildId: string, number: number) => `${moderationPath(guildId)}/cases/${number}`;
export const newActionPath = (guildId: string, userId?: string) => `${moderationPath(guildId)}/actions/new${userId ? `?mod-member=${userId}` : ''}`;
export const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'moderation' as const });

/** The list's filters as the API's query names them; each absent means any. */
export interface CaseFilters {
  action?: string;
  source?: string;
  userId?: string;
  moderatorId?: string;
  active?: '1' | '0';
}

/** The member: their name now, else the tag the case recorded (they may have left), else the id. */
export const memberOf = (c: ModCaseBody, names: Names) => names.get(c.userId) ?? c.userTag ?? c.userId;
/** Who acted: the moderator by name, with the API key when the action came through one. */
export const moderatorOf = (c: ModCaseBody, names: Names) => (
  <>
    {nameOf(names, c.moderatorId)}
    {c.apiKey && <span class="muted"> (API key {c.apiKey.name ?? `#${c.apiKey.id}`})</span>}
  </>
);
export const stateOf = (c: ModCaseBody) => (c.active ? <>running{c.expiresAt && <> until {when(c.expiresAt)}</>}</> : c.resolvedAt ? <>ended {when(c.resolvedAt)}</> : 'done');

function Choice(props: { id: string; label: string; name: string; value: string | undefined; options: Array<[string, string]> }) {
  return (
    <p>
      <label for={props.id}>{props.label}</label>
      <br />
      <select id={props.id} name={props.name}>
        {props.options.map(([value, label]) => (
          <option value={value} selected={(props.value ?? '') === value}>
            {label}
          </option>
        ))}
      </select>
    </p>
  );
}

function IdFilter(props: { id: string; label: string; name: string; value: string | undefined; list: string }) {
  return (
    <p>
      <label for={props.id}>{props.label}</label>
      <br />
      <input type="text" id={props.id} name={props.name} value={props.value ?? ''} list={props.list} inputMode="numeric" size={20} />
    </p>
  );
}

const any: [string, string] = ['', 'any'];

export function CasesPage(props: { viewer: Viewer; guild: GuildRecord; filters: CaseFilters; cases: ModCaseBody[]; names: Names; olderHref: string | null }) {
  const { guild, filters: f, names } = props;
  const list = memberListId('case-members');
  const filtered = Object.values(f).some((v) => v !== undefined);
  return (
    <Layout title="Moderation" viewer={props.viewer} server={nav(guild)}>
      <p>
        <a href={newActionPath(guild.id)}>Take an action</a> (warn, time out, kick, ban, lift a timeout or a ban)
      </p>
      <form method="get" action={moderationPath(guild.id)} class="filters">
        <Choice id="case-action" label="Action" name="action" value={f.action} options={[any, ...CASE_ACTIONS.map((a): [string, string] => [a, a])]} />
        <Choice id="case-source" label="Source" name="source" value={f.source} options={[any, ...CASE_SOURCES.map((s): [string, string] => [s, s])]} />
        <IdFilter id="case-member" label="Member (user id)" name="userId" value={f.userId} list={list} />
        <IdFilter id="case-moderator" label="Moderator (user id)" name="moderatorId" value={f.moderatorId} list={list} />
        <Choice id="case-active" label="State" name="active" value={f.active} options={[any, ['1', 'running'], ['0', 'ended or done']]} />
        <p>
          <button type="submit">Show</button>
        </p>
      </form>
      <MemberList id={list} names={names} />
      <DataTable
        caption="Moderation cases, newest first"
        columns={['Case', 'Action', 'Member', 'Moderator', 'Source', 'Reason', 'State', 'Recorded']}
        rows={props.cases}
        empty={{
          name: 'cases',
          text: filtered
            ? 'No case matches these filters.'
            : 'No moderation case yet. Cases are recorded when staff use the bot’s commands, the API or “Take an action” above.',
        }}
        row={(c) => (
          <tr data-case={String(c.number)}>
            <td>
              <a href={casePath(guild.id, c.number)}>#{c.number}</a>
            </td>
            <td>{c.action}</td>
            <td>{memberOf(c, names)}</td>
            <td>{moderatorOf(c, names)}</td>
            <td>{c.source}</td>
            <td>{c.reason ?? '—'}</td>
            <td>{stateOf(c)}</td>
            <td>{when(c.createdAt)}</td>
          </tr>
        )}
      />
      <OlderLink href={props.olderHref} label="Older cases" />
    </Layout>
  );
}
