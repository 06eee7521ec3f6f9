import { issuesByNode, type IssuesByNode } from '../../../src/flows/definitionIssues.js';
import { parseDefinitionText } from '../../../src/flows/definitionText.js';
import { FlowRefusal } from '../../../src/flows/flowDefinitionCheck.js';
import { FLOW_WEBHOOK_PATH } from '../../../src/flows/webhookPath.js';
import type { AppDeps } from '../../context.js';
import type { ConsoleContext } from '../consoleState.js';
import { FormRejection, showOnceAt, submitOnce } from '../formFlow.js';
import { DEFINITION_FIELD, nodeField, type DefinitionForm } from '../views/flowDefinitionPage.js';
import type { FieldError } from '../views/formParts.js';

/** Parsed for the node list only: text that is not JSON lists no node (its error is on the textarea). */
const inputOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** A refused definition's issues as the form's errors: each on its node (linked from the summary) or on the textarea. */
function errorsOf(laid: IssuesByNode): FieldError[] {
  return [
    ...laid.flow.map((message) => ({ field: DEFINITION_FIELD, message })),
    ...laid.nodes.flatMap((n) => n.issues.map((message) => ({ field: nodeField(n.id), message: `Node "${n.id}": ${message}` }))),
  ];
}

/** The editor's form for a definition as saved (or as a new flow starts): nothing refused. */
export function definitionForm(definition: unknown): DefinitionForm {
  return { text: JSON.stringify(definition, null, 2), laid: issuesByNode(definition, []) };
}

/**
 * A definition editor's POST, for a new flow and a flow's next version: `save` gets the text read as JSON and saves it
 * through the flow use case (which checks it with the CLI's rules), answering the flow's page and the webhook token
 * it issued, if any, shown there once (as the CLI prints it). A refused definition (422 INVALID_DEFINITION) goes to
 * `resend` with the text as sent and each issue beside the node it concerns; nothing is saved.
 */
export async function submitDefinition(
  ctx: ConsoleContext,
  deps: AppDeps,
  text: string,
  save: (definition: unknown) => Promise<{ to: string; webhookToken: string | null }>,
  resend: (form: DefinitionForm) => Promise<void>,
): Promise<void> {
  // The refused definition's issues by node, for the form shown again.
  let laid: IssuesByNode = issuesByNode(inputOf(text), []);
  // Text that is not JSON is refused like any other definition: parsed inside the promise the refusal is caught on.
  const parsedAndSaved = async () => save(parseDefinitionText(text, 'The definition'));
  const saving = async () => {
    const { to, webhookToken } = await parsedAndSaved().catch((err: unknown) => {
      if (!(err instanceof FlowRefusal) || err.code !== 'INVALID_DEFINITION') throw err;
      laid = issuesByNode(inputOf(text), err.issues);
      throw new FormRejection(422, err.code, errorsOf(laid));
    });
    return webhookToken ? showOnceAt(ctx, deps, to, { webhookPath: `${FLOW_WEBHOOK_PATH}/${webhookToken}` }) : to;
  };
  await submitOnce(ctx, deps, saving, async (problem) => resend({ text, laid, problem }));
}
