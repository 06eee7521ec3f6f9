import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { InviteSeasonRecord } from '../../../db/invites/seasons.js';
import type { SeasonRow } from '../../../src/invites/readInviteSetup.js';
import { TextField } from './fields.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { invitesNav, invitesPath } from './invitePages.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { ListView } from './listView.js';

/** The input ids of the season forms (the error summary links to them). */
export const SEASON_FIELDS = { name: 'season-name', restart: 'season-restart', nextName: 'season-next-name' } as const;
export const SEASON_NAME_MAX = 100;

export const seasonsPath = (guildId: string, rest = '') => invitesPath(guildId, `/seasons${rest}`);
const seasonTitle = (s: InviteSeasonRecord) => `Season ${s.number}${s.name ? ` (${s.name})` : ''}`;

/** The form that starts a season, on a page of its own (a season may start elsewhere meanwhile: refused on this form). */
export function StartSeasonPage(props: { viewer: Viewer; guild: GuildRecord; form?: FormState }) {
  const action = seasonsPath(props.guild.id);
  return (
    <Layout title="Start a season" viewer={props.viewer} server={invitesNav(props.guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <form method="post" action={action} class="card">
        <FormFields viewer={props.viewer} action={action} />
        <p>From the moment you start it, verified joins and bonus invites count toward the season's own leaderboard too.</p>
        <TextField
          name={SEASON_FIELDS.name}
          label="Name (optional)"
          hint={`At most ${SEASON_NAME_MAX} characters, e.g. "Spring 2027".`}
          value={props.form?.values.get(SEASON_FIELDS.name) ?? ''}
          maxLength={SEASON_NAME_MAX}
          problem={props.form?.problem}
        />
        <p>
          <button type="submit">Start the season</button> <a href={seasonsPath(props.guild.id)}>Cancel</a>
        </p>
      </form>
    </Layout>
  );
}

export function SeasonsPage(props: { viewer: Viewer; guild: GuildRecord; active: InviteSeasonRecord | undefined; seasons: SeasonRow[]; olderHref: string | null; form?: FormState }) {
  const { guild, active } = props;
  return (
    <Layout title="Invite seasons" viewer={props.viewer} server={invitesNav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <p>
        <a href={invitesPath(guild.id)}>Back to the invites leaderboard</a>
      </p>
      {active ? (
        <p class="card" data-active-season={String(active.number)}>
          {seasonTitle(active)} is running since {isoTime(active.startedAt)}. <a href={seasonsPath(guild.id, '/end')}>End this season…</a>
        </p>
      ) : (
        <p class="card" data-active-season="none">
          No season is running. <a href={seasonsPath(guild.id, '/new')}>Start a season…</a>
        </p>
      )}
      <ListView
        caption="Seasons, newest first"
        columns={['Season', 'Name', 'Started', 'Ended', 'Inviters']}
        rows={props.seasons}
        empty={{ name: 'seasons', text: 'No season yet. Start one to rank members by the invites of a period (a month, an event) besides all time.' }}
        row={(s) => (
          <tr data-season={String(s.number)}>
            <td>{s.number}</td>
            <td>{s.name ?? '—'}</td>
            <td>{isoTime(s.startedAt)}</td>
            <td>{s.endedAt ? isoTime(s.endedAt) : 'running'}</td>
            <td>{s.inviters}</td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'Older seasons' }}
      />
    </Layout>
  );
}

/** The confirmation before ending the active season, with the choice to start the next one at the same instant. */
export function EndSeasonPage(props: { viewer: Viewer; guild: GuildRecord; season: InviteSeasonRecord; form?: FormState }) {
  const { guild, season } = props;
  const action = seasonsPath(guild.id, '/end');
  const values = props.form?.values;
  return (
    <Layout title={`End ${seasonTitle(season)}?`} viewer={props.viewer} server={invitesNav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <p>Its counts are frozen from the moment you confirm; this cannot be undone. All-time invites and milestone roles stay as they are.</p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <fieldset>
          <legend>And then</legend>
          <label class="check">
            <input type="checkbox" name={SEASON_FIELDS.restart} value="on" checked={values?.get(SEASON_FIELDS.restart) === 'on'} /> Start the next season at once (a reset)
          </label>
          <TextField
            name={SEASON_FIELDS.nextName}
            label="The next season's name (optional)"
            hint={`At most ${SEASON_NAME_MAX} characters.`}
            value={values?.get(SEASON_FIELDS.nextName) ?? ''}
            maxLength={SEASON_NAME_MAX}
            problem={props.form?.problem}
          />
        </fieldset>
        <button type="submit" class="danger">
          End the season
        </button>{' '}
        <a href={seasonsPath(guild.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
