import type { ComponentChildren } from 'preact';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { FormFields } from './formParts.js';
import { Layout, type ServerNav, type Viewer } from './layout.js';

/** What the confirmation of a decision carries: where it posts, the checked values, and where Cancel goes. */
export interface DecisionConfirmation {
  action: string;
  values: URLSearchParams;
  cancel: string;
}

/**
 * Before a final decision (a submission's, an appeal's): the verdict as a question, what it will do, each effect on a
 * line, and the form that decides (the values sent again); Cancel goes back to the record's form with them.
 */
export function DecisionConfirmPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  active: ServerNav['active'];
  question: string;
  verdict: string;
  reason: string | null;
  effects: ComponentChildren[];
  button: string;
  confirm: DecisionConfirmation;
}) {
  const { guild, confirm } = props;
  return (
    <Layout title={props.question} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: props.active }}>
      <p data-confirm-decision={props.verdict}>{props.reason ? <>With the reason "{props.reason}".</> : 'With no reason.'}</p>
      <h2>What happens</h2>
      <ul data-decision-effects>
        {props.effects.map((effect) => (
          <li>{effect}</li>
        ))}
      </ul>
      <p class="muted">The decision cannot be changed afterwards; the audit log records it with your name.</p>
      <form method="post" action={confirm.action}>
        <FormFields viewer={props.viewer} action={confirm.action} />
        {[...confirm.values].map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <button type="submit" class="danger">
          {props.button}
        </button>{' '}
        <a href={confirm.cancel}>Cancel</a>
      </form>
    </Layout>
  );
}
