import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { FlowDefinitionInput } from '../../../src/flows/definition.js';
import { DefinitionEditor, type DefinitionForm } from './flowDefinitionPage.js';
import { flowNav, flowsPath, newFlowPath } from './flowPages.js';
import { CheckField } from './fields.js';
import { ErrorSummary } from './formParts.js';
import { Layout, type Viewer } from './layout.js';

export const FLOW_ENABLED_FIELD = 'flow-enabled';

/** What a new flow's editor starts with: the smallest flow the rules take (run by hand, it sets one value), to change. */
export const STARTER_DEFINITION: FlowDefinitionInput = {
  name: 'New flow',
  timeoutSeconds: 60,
  nodes: [
    { id: 'start', type: 'trigger', trigger: { kind: 'manual' }, next: 'done' },
    { id: 'done', type: 'set', values: { greeting: 'hello' } },
  ],
};

/** A new flow: its definition (the name is the definition's `name`) and whether it runs at once; a refused one comes back as sent. */
export function NewFlowPage(props: { viewer: Viewer; guild: GuildRecord; form: DefinitionForm; enabled: boolean }) {
  const { guild, form } = props;
  return (
    <Layout title="New flow" viewer={props.viewer} server={flowNav(guild)} hasErrors={!!form.problem}>
      <ErrorSummary problem={form.problem} />
      <p>
        The flow as JSON (docs/flows.md lists the triggers, the nodes and their parameters); its name is the definition's <code>name</code>. It starts as the
        smallest flow that can be saved: a manual trigger and one node. A webhook flow's URL is shown once, on the flow's page, after you create it.
      </p>
      <DefinitionEditor viewer={props.viewer} action={newFlowPath(guild.id)} form={form} submit="Create the flow" cancel={flowsPath(guild.id)}>
        <CheckField name={FLOW_ENABLED_FIELD} label="Enable it at once (otherwise its trigger starts no run until you enable it)" checked={props.enabled} />
      </DefinitionEditor>
    </Layout>
  );
}
