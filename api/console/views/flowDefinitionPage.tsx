import type { ComponentChildren } from 'preact';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { FlowBody } from '../../../src/flows/contract.js';
import type { IssuesByNode } from '../../../src/flows/definitionIssues.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormProblem } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { flowNav, flowPath } from './flowPages.js';

export const DEFINITION_FIELD = 'flow-definition';
/** The id of a node's entry in the node list, where its errors are shown (and the error summary links). */
export const nodeField = (id: string) => `flow-node-${id}`;

/** The definition as a manager edits it: the saved JSON, or what they sent when it came back refused. */
export interface DefinitionForm {
  text: string;
  laid: IssuesByNode;
  problem?: FormProblem;
}

function NodeList({ laid }: { laid: IssuesByNode }) {
  if (laid.nodes.length === 0) return <p class="muted">The definition names no node with an id.</p>;
  return (
    <ul class="node-list">
      {laid.nodes.map((n) => (
        <li id={nodeField(n.id)} data-node={n.id} data-node-errors={String(n.issues.length)}>
          <strong>{n.id}</strong> ({n.type}){n.issues.length === 0 && ': no problem found'}
          {n.issues.length > 0 && (
            <ul class="field-error">
              {n.issues.map((message) => (
                <li>
                  <span class="visually-hidden">Error: </span>
                  {message}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The definition's editor, for a new flow and for a flow's next version: the JSON in a textarea (no script needed),
 * `children` (more fields) below it, and the node list where each refused node shows its issues.
 */
export function DefinitionEditor(props: { viewer: Viewer; action: string; form: DefinitionForm; submit: string; cancel: string; children?: ComponentChildren }) {
  const { form, action } = props;
  return (
    <>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <p>
          <label for={DEFINITION_FIELD}>Definition (JSON)</label>
          <FieldMessage problem={form.problem} field={DEFINITION_FIELD} />
          <br />
          <textarea id={DEFINITION_FIELD} name="definition" rows={24} cols={80} spellcheck={false} {...invalidAttrs(form.problem, DEFINITION_FIELD)}>
            {form.text}
          </textarea>
        </p>
        {props.children}
        <p>
          <button type="submit">{props.submit}</button> <a href={props.cancel}>Cancel</a>
        </p>
      </form>
      <h2>Nodes</h2>
      <NodeList laid={form.laid} />
    </>
  );
}

export function FlowDefinitionPage(props: { viewer: Viewer; guild: GuildRecord; flow: FlowBody; form: DefinitionForm }) {
  const { guild, flow, form } = props;
  return (
    <Layout title={`Edit "${flow.name}"`} viewer={props.viewer} server={flowNav(guild)} hasErrors={!!form.problem}>
      <ErrorSummary problem={form.problem} />
      <p>
        The flow's definition as JSON (docs/flows.md lists the nodes and their parameters). Saving makes version {flow.version + 1}: runs from then on use it,
        runs in progress keep theirs.
      </p>
      <DefinitionEditor viewer={props.viewer} action={`${flowPath(guild.id, flow.id)}/definition`} form={form} submit="Save a new version" cancel={flowPath(guild.id, flow.id)} />
    </Layout>
  );
}
