import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { AuditRecord } from '../../../src/console/readAuditLog.js';
import { DataTable } from './dataTable.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { OlderLink } from './olderLink.js';

const ACTOR_LABELS: Record<string, string> = { console_user: 'console user', api_key: 'API key', operator: 'operator', member: 'member (bot command)', system: 'system' };

function Actor({ entry }: { entry: AuditRecord }) {
  if (entry.actorType === 'api_key') return <>API key #{entry.apiKeyId}{entry.actorId && <> (for {entry.actorId})</>}</>;
  if (entry.actorType === 'console_user') return <>console user {entry.actorId}</>;
  if (entry.actorType === 'operator') return <>operator {entry.actorId ?? ''}</>;
  if (entry.actorType === 'member') return <>member {entry.actorId} (bot command)</>;
  return <>system</>;
}

export function AuditPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  entries: AuditRecord[];
  filter: { actor?: string; action?: string };
  actorTypes: readonly string[];
  olderHref: string | null;
}) {
  const { guild, filter } = props;
  const action = `/console/servers/${guild.id}/audit`;
  return (
    <Layout title="Audit log" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'audit' }}>
      <form method="get" action={action} class="filters" hx-get={action} hx-target="#audit" hx-select="#audit" hx-swap="outerHTML" hx-push-url="true">
        <p>
          <label for="filter-actor">Who</label>
          <br />
          <select id="filter-actor" name="actor">
            <option value="">anyone</option>
            {props.actorTypes.map((t) => (
              <option value={t} selected={filter.actor === t}>
                {ACTOR_LABELS[t] ?? t}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label for="filter-action">Action starts with</label>
          <br />
          <input id="filter-action" name="action" value={filter.action ?? ''} maxLength={100} placeholder="api_key." />
        </p>
        <p>
          <button type="submit">Filter</button>
        </p>
      </form>
      <div id="audit">
        <DataTable
          caption={<>Audit log of {guild.name}, newest first</>}
          columns={['When', 'Who', 'Action', 'Target', 'Details']}
          rows={props.entries}
          empty={{ name: 'audit', text: 'No entry matches.' }}
          row={(e) => (
            <tr data-audit-id={e.id} data-actor-type={e.actorType}>
              <td>{isoTime(e.createdAt)}</td>
              <td>
                <Actor entry={e} />
              </td>
              <td>
                <code>{e.action}</code>
              </td>
              <td>{e.targetType ? `${e.targetType} ${e.targetId ?? ''}` : ''}</td>
              <td>
                <code>{JSON.stringify(e.data)}</code>
              </td>
            </tr>
          )}
        />
        <OlderLink href={props.olderHref} label="Older entries" />
      </div>
    </Layout>
  );
}
