import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { GiveawayDetailBody } from '../../../src/giveaways/contract.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import { NumberField } from './giveawayFields.js';
import { giveawayPath } from './giveawayPages.js';
import { Layout, type Viewer } from './layout.js';
import { nameOf, type Names } from './ticketPages.js';

export const REROLL_FIELDS = { replace: 'reroll-replace', count: 'reroll-count' } as const;
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'giveaways' as const });

/** Said instead of the form when the giveaway's status no longer allows the action (a page opened or followed late). */
function NotNow(props: { guild: GuildRecord; giveaway: GiveawayDetailBody; only: string }) {
  return (
    <p data-not-now>
      The giveaway is {props.giveaway.status}: only {props.only}. <a href={giveawayPath(props.guild.id, props.giveaway.id)}>Back to the giveaway</a>
    </p>
  );
}

/** The confirmation before ending an active giveaway early: entries close and the winners are drawn at once. */
export function EndGiveawayPage(props: { viewer: Viewer; guild: GuildRecord; giveaway: GiveawayDetailBody }) {
  const { guild, giveaway: g } = props;
  const action = `${giveawayPath(guild.id, g.id)}/end`;
  return (
    <Layout title={`End giveaway #${g.id} now?`} viewer={props.viewer} server={nav(guild)}>
      <p>
        Entries to "{g.prize}" close now and {g.winnersCount === 1 ? 'its winner is' : `its ${g.winnersCount} winners are`} drawn among its{' '}
        {g.entryCounts.entrants} entrants; the bot edits the message and announces the winners. This cannot be undone (a reroll draws new winners).
      </p>
      {g.status === 'active' ? (
        <form method="post" action={action}>
          <FormFields viewer={props.viewer} action={action} />
          <button type="submit" class="danger">
            End the giveaway
          </button>{' '}
          <a href={giveawayPath(guild.id, g.id)}>Cancel</a>
        </form>
      ) : (
        <NotNow guild={guild} giveaway={g} only="an active giveaway can be ended" />
      )}
    </Layout>
  );
}

/** The confirmation before a reroll: which winners lose their win (all by default) and how many new ones are drawn. */
export function RerollGiveawayPage(props: { viewer: Viewer; guild: GuildRecord; giveaway: GiveawayDetailBody; names: Names; form?: FormState }) {
  const { guild, giveaway: g, names } = props;
  const action = `${giveawayPath(guild.id, g.id)}/reroll`;
  const problem = props.form?.problem;
  const replaced = props.form ? props.form.values.getAll(REROLL_FIELDS.replace) : g.winnerIds;
  return (
    <Layout title={`Reroll giveaway #${g.id}?`} viewer={props.viewer} server={nav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <p>
        New winners of "{g.prize}" are drawn among the entrants who never won; the bot announces them. The winners you replace lose their win; this
        cannot be undone.
      </p>
      {g.status === 'ended' ? (
        <form method="post" action={action} class="card">
          <FormFields viewer={props.viewer} action={action} />
          <fieldset id={REROLL_FIELDS.replace} {...invalidAttrs(problem, REROLL_FIELDS.replace, true)}>
            <legend>Winners to replace</legend>
            <FieldMessage problem={problem} field={REROLL_FIELDS.replace} />
            {g.winnerIds.length === 0 ? (
              <p data-empty="winners">The giveaway has no winner now: the reroll draws into its free places.</p>
            ) : (
              g.winnerIds.map((id) => (
                <label class="check">
                  <input type="checkbox" name={REROLL_FIELDS.replace} value={id} checked={replaced.includes(id)} /> {nameOf(names, id)}
                </label>
              ))
            )}
          </fieldset>
          <NumberField
            name={REROLL_FIELDS.count}
            label="New winners to draw (optional)"
            hint={`Leave empty to fill every free place (the giveaway has ${g.winnersCount} at most).`}
            value={props.form?.values.get(REROLL_FIELDS.count) ?? ''}
            min={1}
            max={50}
            problem={problem}
          />
          <button type="submit" class="danger">
            Reroll
          </button>{' '}
          <a href={giveawayPath(guild.id, g.id)}>Cancel</a>
        </form>
      ) : (
        <NotNow guild={guild} giveaway={g} only="an ended giveaway can be rerolled" />
      )}
    </Layout>
  );
}
