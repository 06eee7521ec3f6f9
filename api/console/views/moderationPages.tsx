import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { MemberSearch } from '../../../src/console/memberSearch.js';
import { CASE_ACTIONS, CASE_SOURCES, type ModCaseBody } from '../../../src/moderation/contract.js';
import { DataTable } from './dataTable.js';
import { isoTimeOrDash as when, Layout, type Viewer } from './layout.js';
import { ErrorSummary, type FormProblem } from './formParts.js';
import { FoundMembers, MemberFinder } from './memberPicker.js';
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

/** Who a case list is filtered by: `userId` the member, `moderatorId` the moderator. */
export type CasePerson = 'userId' | 'moderatorId';
const finders = { userId: { path: 'members', title: "A member's cases", label: 'Member' }, moderatorId: { path: 'moderators', title: "A moderator's cases", label: 'Moderator' } } as const;
export const caseFinderPath = (guildId: string, who: CasePerson) => `${moderationPath(guildId)}/${finders[who].path}`;
export const casesOfPath = (guildId: string, who: CasePerson, userId: string) => `${moderationPath(guildId)}?${new URLSearchParams({ [who]: userId })}`;

/**
 * The member or moderator the list is filtered by, shown by name (a member who left by the tag their case recorded),
 * kept as a hidden field so the other filters keep it, with a link showing everyone again.
 */
function PersonFilter(props: { guildId: string; who: CasePerson; filters: CaseFilters; name: string | undefined }) {
  const id = props.filters[props.who];
  if (id === undefined) return null;
  const rest = Object.fromEntries(Object.entries(props.filters).filter(([k, v]) => k !== props.who && v !== undefined)) as Record<string, string>;
  return (
    <p data-filter={props.who}>
      {finders[props.who].label}: <strong>{props.name ?? `user ${id}`}</strong> <small class="muted">{id}</small>{' '}
      <a href={`${moderationPath(props.guildId)}?${new URLSearchParams(rest)}`}>any {finders[props.who].label.toLowerCase()}</a>
      <input type="hidden" name={props.who} value={id} />
    </p>
  );
}

const any: [string, string] = ['', 'any'];

export function CasesPage(props: { viewer: Viewer; guild: GuildRecord; filters: CaseFilters; cases: ModCaseBody[]; names: Names; olderHref: string | null }) {
  const { guild, filters: f, names } = props;
  const nameOfFilter = (id: string | undefined) => id && (names.get(id) ?? props.cases.find((c) => c.userId === id)?.userTag ?? undefined);
  const filtered = Object.values(f).some((v) => v !== undefined);
  return (
    <Layout title="Moderation" viewer={props.viewer} server={nav(guild)}>
      <p>
        <a href={newActionPath(guild.id)}>Take an action</a> (warn, time out, kick, ban, lift a timeout or a ban)
      </p>
      <form method="get" action={moderationPath(guild.id)} class="filters">
        <Choice id="case-action" label="Action" name="action" value={f.action} options={[any, ...CASE_ACTIONS.map((a): [string, string] => [a, a])]} />
        <Choice id="case-source" label="Source" name="source" value={f.source} options={[any, ...CASE_SOURCES.map((s): [string, string] => [s, s])]} />
        <PersonFilter guildId={guild.id} who="userId" filters={f} name={nameOfFilter(f.userId)} />
        <PersonFilter guildId={guild.id} who="moderatorId" filters={f} name={nameOfFilter(f.moderatorId)} />
        <Choice id="case-active" label="State" name="active" value={f.active} options={[any, ['1', 'running'], ['0', 'ended or done']]} />
        <p>
          <button type="submit">Show</button>
        </p>
      </form>
      <MemberFinder action={caseFinderPath(guild.id, 'userId')} title={finders.userId.title} />
      <p>
        <a href={caseFinderPath(guild.id, 'moderatorId')}>Find a moderator's cases</a>
      </p>
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

/** The members whose name starts as searched, each a link to the cases filtered by them; the finder kept with its problem. */
export function CaseFinderPage(props: { viewer: Viewer; guild: GuildRecord; who: CasePerson; search: MemberSearch; values: URLSearchParams; problem?: FormProblem }) {
  const { guild, who } = props;
  return (
    <Layout title={finders[who].title} viewer={props.viewer} server={nav(guild)} hasErrors={!!props.problem}>
      <ErrorSummary problem={props.problem} />
      <MemberFinder action={caseFinderPath(guild.id, who)} title={finders[who].title} values={props.values} problem={props.problem} />
      <FoundMembers search={props.search} hrefOf={(id) => casesOfPath(guild.id, who, id)} empty={`case-${finders[who].path}`} />
      <p>
        <a href={moderationPath(guild.id)}>All cases</a>
      </p>
    </Layout>
  );
}
