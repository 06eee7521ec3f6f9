import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { FlowBody, FlowRunBody } from '../../../src/flows/contract.js';
import { FormFields } from './formParts.js';
import { isoTimeOrDash as when, Layout, type Viewer } from './layout.js';
import { ListView } from './listView.js';

export const flowsPath = (guildId: string) => `/console/servers/${guildId}/flows`;
export const newFlowPath = (guildId: string) => `${flowsPath(guildId)}/new`;
export const flowPath = (guildId: string, id: number) => `${flowsPath(guildId)}/${id}`;
export const runPath = (guildId: string, executionId: number) => `${flowsPath(guildId)}/runs/${executionId}`;
export const flowNav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'flows' as const });
export const triggerText = (f: Pick<FlowBody, 'triggerType' | 'triggerEvent'>) => (f.triggerType === 'event' ? `event ${f.triggerEvent}` : (f.triggerType ?? '—'));
const stateText = (f: FlowBody) => (f.enabled ? 'enabled' : 'disabled');

export function FlowsPage(props: { viewer: Viewer; guild: GuildRecord; flows: FlowBody[]; moreHref: string | null }) {
  const { guild } = props;
  return (
    <Layout title="Flows" viewer={props.viewer} server={flowNav(guild)}>
      <p>
        A flow runs its nodes when its trigger fires: called by hand or through the API, at its webhook URL, or on a member joining or leaving.{' '}
        <a href={newFlowPath(guild.id)}>New flow</a>
      </p>
      <ListView
        caption="Flows, in the order they were created"
        columns={['Flow', 'Trigger', 'State', 'Version', 'Changed']}
        rows={props.flows}
        empty={{ name: 'flows', text: 'This server has no flow yet. Create one with "New flow": write its definition (docs/flows.md), enable it, then watch its runs here.' }}
        row={(f) => (
          <tr data-flow={String(f.id)}>
            <td>
              <a href={flowPath(guild.id, f.id)}>{f.name}</a>
            </td>
            <td>{triggerText(f)}</td>
            <td data-state={stateText(f)}>{stateText(f)}</td>
            <td>v{f.version}</td>
            <td>{when(f.updatedAt)}</td>
          </tr>
        )}
        older={{ href: props.moreHref, label: 'More flows' }}
      />
    </Layout>
  );
}

function StateForm(props: { viewer: Viewer; guild: GuildRecord; flow: FlowBody }) {
  const { guild, flow } = props;
  if (!flow.enabled) {
    const action = `${flowPath(guild.id, flow.id)}/enable`;
    return (
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <button type="submit">Enable the flow</button>
      </form>
    );
  }
  return <a href={`${flowPath(guild.id, flow.id)}/disable`}>Disable the flow…</a>;
}

export function FlowPage(props: { viewer: Viewer; guild: GuildRecord; flow: FlowBody; runs: FlowRunBody[]; olderHref: string | null; webhookPath?: string }) {
  const { guild, flow } = props;
  return (
    <Layout title={`Flow "${flow.name}"`} viewer={props.viewer} server={flowNav(guild)}>
      {props.webhookPath && (
        <p class="notice" data-webhook-path>
          This flow has a new webhook URL, shown only now: <code>{`<api base>${props.webhookPath}`}</code>
        </p>
      )}
      <dl>
        <dt>Trigger</dt>
        <dd>{triggerText(flow)}</dd>
        <dt>State</dt>
        <dd data-state={stateText(flow)}>{flow.enabled ? 'enabled: it runs' : 'disabled: it does not run'}</dd>
        <dt>Version</dt>
        <dd>
          v{flow.version}, changed {when(flow.updatedAt)}
        </dd>
        <dt>Timeout</dt>
        <dd>{flow.timeoutSeconds} s</dd>
        {flow.description && (
          <>
            <dt>Description</dt>
            <dd>{flow.description}</dd>
          </>
        )}
      </dl>
      <div class="actions">
        <StateForm viewer={props.viewer} guild={guild} flow={flow} /> <a href={`${flowPath(guild.id, flow.id)}/definition`}>Edit the definition</a>{' '}
        <a href={`${flowPath(guild.id, flow.id)}/delete`}>Delete the flow…</a>
      </div>
      <h2>Runs</h2>
      <ListView
        caption="Runs of this flow, newest first"
        columns={['Run', 'Status', 'Started', 'Duration', 'Error']}
        rows={props.runs}
        empty={{ name: 'runs', text: flow.enabled ? 'No run yet: the flow runs when its trigger fires.' : 'No run yet. Enable the flow so that its trigger runs it.' }}
        row={(r) => (
          <tr data-run={String(r.executionId)}>
            <td>
              <a href={runPath(guild.id, r.executionId)}>#{r.executionId}</a>
            </td>
            <td data-status={r.status}>{r.status}</td>
            <td>{when(r.startedAt)}</td>
            <td>{r.durationMs === null ? '—' : `${r.durationMs} ms`}</td>
            <td>{r.error ?? '—'}</td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'Older runs' }}
      />
      <p>
        <a href={flowsPath(guild.id)}>Back to the flows</a>
      </p>
    </Layout>
  );
}

/** The confirmation before disabling or deleting a flow (both stop its trigger at once). */
export function ConfirmFlowPage(props: { viewer: Viewer; guild: GuildRecord; flow: FlowBody; verb: 'disable' | 'delete' }) {
  const { guild, flow, verb } = props;
  const action = `${flowPath(guild.id, flow.id)}/${verb}`;
  return (
    <Layout title={`${verb === 'disable' ? 'Disable' : 'Delete'} "${flow.name}"?`} viewer={props.viewer} server={flowNav(guild)}>
      <p>
        {verb === 'disable'
          ? 'Its trigger stops starting runs from the moment you confirm; runs in progress finish. You can enable it again.'
          : 'The flow and its definition are removed from the moment you confirm; its runs stay readable and runs in progress finish. This cannot be undone.'}
      </p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <button type="submit" class="danger">
          {verb === 'disable' ? 'Disable the flow' : 'Delete the flow'}
        </button>{' '}
        <a href={flowPath(guild.id, flow.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
