import { isoTimeOrDash as when } from './layout.js';
import { nameOf, type Names } from './ticketPages.js';

/**
 * The parts an appeal's page and a submission's page show alike around a decision: who decided and when, and the
 * effects still being applied. One place, so both records read the same.
 */
export function DecidedEntry(props: { decidedAt: string | null; decidedBy: string | null; reason: string | null; names: Names }) {
  if (!props.decidedAt) return null;
  return (
    <>
      <dt>Decided</dt>
      <dd>
        {when(props.decidedAt)} {props.decidedBy ? `by ${nameOf(props.names, props.decidedBy)}` : 'through the API or by the bot'}
        {props.reason && <>: {props.reason}</>}
      </dd>
    </>
  );
}

/** Shown while the decision's effects (listed in `effects`) are still queued for the bot. */
export function ApplyingNotice(props: { applying: boolean; effects: string }) {
  if (!props.applying) return null;
  return (
    <p class="notice" data-applying>
      The bot is still applying the decision ({props.effects}).
    </p>
  );
}
