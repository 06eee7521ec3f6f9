import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { FlowRunBody } from '../../../src/flows/contract.js';
import type { RunNode } from '../../../src/flows/readFlowRuns.js';
import { DataTable } from './dataTable.js';
import { isoTimeOrDash as when, Layout, type Viewer } from './layout.js';
import { flowNav, flowPath } from './flowPages.js';

const json = (value: unknown) => JSON.stringify(value ?? null, null, 2);

function outcomeText(node: RunNode, run: FlowRunBody, kept: boolean): string {
  const o = node.outcome;
  if (o) return o.status;
  if (run.status === 'running') return 'not yet';
  return kept ? 'not reached' : 'not recorded';
}

function Detail({ node }: { node: RunNode }) {
  const o = node.outcome;
  if (!o) return <>—</>;
  if (o.error) return <>{o.error}</>;
  if (o.outputBytes !== undefined) return <>an output of {o.outputBytes} bytes (not kept)</>;
  return <pre>{json(o.output)}</pre>;
}

/** One run: its status as GET runs/{executionId} gives it, and each node of its snapshot with what it did. */
export function FlowRunPage(props: { viewer: Viewer; guild: GuildRecord; run: FlowRunBody; flowName: string | null; source: string; flowVersion: number; nodes: RunNode[]; outcomesKept: boolean }) {
  const { guild, run } = props;
  return (
    <Layout title={`Run #${run.executionId}`} viewer={props.viewer} server={flowNav(guild)}>
      <dl>
        <dt>Status</dt>
        <dd data-status={run.status}>{run.status}</dd>
        <dt>Flow</dt>
        <dd>
          {props.flowName === null ? `a deleted flow (${run.workflowId})` : <a href={flowPath(guild.id, run.workflowId)}>{props.flowName}</a>}, version {props.flowVersion}, started by{' '}
          {props.source}
        </dd>
        <dt>Started</dt>
        <dd>{when(run.startedAt)}</dd>
        <dt>Finished</dt>
        <dd>
          {when(run.finishedAt)}
          {run.durationMs !== null && ` (${run.durationMs} ms)`}
        </dd>
        {run.error && (
          <>
            <dt>Error</dt>
            <dd data-run-error>{run.error}</dd>
          </>
        )}
      </dl>
      <h2>Nodes</h2>
      {!props.outcomesKept && run.status !== 'running' && <p class="muted">This run ended before the nodes' outcomes were recorded; only its status and output are known.</p>}
      <DataTable
        caption="The run's nodes as the flow was when it started, and what each did"
        columns={['Node', 'Type', 'Outcome', 'Output or error']}
        rows={props.nodes}
        empty={{ name: 'nodes', text: 'This run has no node.' }}
        row={(n) => (
          <tr data-node={n.id}>
            <td>{n.id}</td>
            <td>{n.type}</td>
            <td data-outcome={outcomeText(n, run, props.outcomesKept)}>{outcomeText(n, run, props.outcomesKept)}</td>
            <td>
              <Detail node={n} />
            </td>
          </tr>
        )}
      />
      {run.status === 'success' && (
        <>
          <h2>Output</h2>
          <pre data-run-output>{json(run.output)}</pre>
        </>
      )}
    </Layout>
  );
}
