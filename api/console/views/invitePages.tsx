import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { InviteLeaderboardBody, InviteMemberBody } from '../../../src/invites/contract.js';
import { MAX_BONUS_AMOUNT } from '../../../src/invites/contract.js';
import type { MemberSearch } from '../../../src/console/memberSearch.js';
import { DataTable } from './dataTable.js';
import { FeatureOffPage } from './featureOff.js';
import { TextField } from './fields.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { isoTime, Layout, type ServerNav, type Viewer } from './layout.js';
import { FoundMembers, MemberFinder } from './memberPicker.js';
import { OlderLink } from './olderLink.js';

export const invitesPath = (guildId: string, rest = '') => `/console/servers/${guildId}/invites${rest}`;
export const inviteMemberPath = (guildId: string, userId: string) => invitesPath(guildId, `/members/${userId}`);
export const invitesNav = (guild: GuildRecord): ServerNav => ({ id: guild.id, name: guild.name, active: 'invites' });

/** The input ids of the invites forms (the error summary links to them). */
export const INVITE_FIELDS = { amount: 'bonus-amount', reason: 'bonus-reason' } as const;

type Names = Map<string, string>;
const nameOf = (names: Names, userId: string) => names.get(userId) ?? userId;

/** Any invites page while the feature is off: says so and offers to turn it on, coming back to `then`. */
export const InvitesOffPage = (props: { viewer: Viewer; guild: GuildRecord; title: string; then: string }) =>
  FeatureOffPage({ ...props, feature: 'invites', active: 'invites' });

/** The links between the invites pages. */
function InviteLinks({ guild }: { guild: GuildRecord }) {
  return (
    <ul class="actions">
      <li>
        <a href={invitesPath(guild.id)}>Leaderboard</a>
      </li>
      <li>
        <a href={invitesPath(guild.id, '/seasons')}>Seasons</a>
      </li>
      <li>
        <a href={invitesPath(guild.id, '/milestones')}>Milestone rewards</a>
      </li>
    </ul>
  );
}

/** A season as one line: its number, its name and when it runs. */
export function SeasonLine({ season }: { season: InviteLeaderboardBody['season'] }) {
  if (!season) return <>No season is running.</>;
  return (
    <>
      Season {season.number}
      {season.name && ` (${season.name})`}, since {isoTime(new Date(season.startsAt!))}
    </>
  );
}

export function InvitesPage(props: { viewer: Viewer; guild: GuildRecord; board: InviteLeaderboardBody; names: Names; olderHref: string | null; lookup?: FormState & { search: MemberSearch } }) {
  const { guild, board, names } = props;
  const season = board.period === 'season';
  return (
    <Layout title="Invites" viewer={props.viewer} server={invitesNav(guild)} hasErrors={!!props.lookup?.problem}>
      <ErrorSummary problem={props.lookup?.problem} />
      <InviteLinks guild={guild} />
      <p data-season={board.season ? String(board.season.number) : 'none'}>
        <SeasonLine season={board.season} /> {!board.season && <a href={invitesPath(guild.id, '/seasons')}>Start one on the Seasons page.</a>}
      </p>
      <MemberFinder action={invitesPath(guild.id, '/members')} title="A member's invites" values={props.lookup?.values} problem={props.lookup?.problem} />
      {props.lookup && <FoundMembers search={props.lookup.search} hrefOf={(id) => inviteMemberPath(guild.id, id)} empty="invite-members" />}
      <h2>Leaderboard</h2>
      <ul class="actions" aria-label="Period">
        <li>
          <a href={invitesPath(guild.id)} aria-current={season ? undefined : 'page'}>
            All time
          </a>
        </li>
        <li>
          <a href={invitesPath(guild.id, '?period=season')} aria-current={season ? 'page' : undefined}>
            Current season
          </a>
        </li>
      </ul>
      <DataTable
        caption={<>{season ? 'The current season' : 'All time'}: members by invites ({board.total} with invites)</>}
        columns={['Rank', 'Member', 'Invites', 'Verified', 'Bonus']}
        rows={board.items}
        empty={{
          name: 'leaderboard',
          text:
            season && !board.season
              ? 'No season is running: start one on the Seasons page to rank members by the invites of a period.'
              : 'Nobody has invites yet: members get them when people join through their invite links, or by bonus invites given on a member\'s page.',
        }}
        row={(r) => (
          <tr data-rank={String(r.rank)}>
            <td>{r.rank}</td>
            <td>
              <a href={inviteMemberPath(guild.id, r.userId)}>{nameOf(names, r.userId)}</a>
            </td>
            <td>{r.invites}</td>
            <td>{r.verified}</td>
            <td>{r.bonus}</td>
          </tr>
        )}
      />
      <OlderLink href={props.olderHref} label="Next members" />
    </Layout>
  );
}

function BonusForm(props: { viewer: Viewer; guild: GuildRecord; userId: string; form?: FormState }) {
  const action = `${inviteMemberPath(props.guild.id, props.userId)}/bonus`;
  const values = props.form?.values;
  const problem = props.form?.problem;
  return (
    <form method="post" action={action} class="card">
      <h2>Bonus invites</h2>
      <FormFields viewer={props.viewer} action={action} />
      <TextField
        name={INVITE_FIELDS.amount}
        label="Amount"
        hint={`A whole number from -${MAX_BONUS_AMOUNT.toLocaleString('en')} to ${MAX_BONUS_AMOUNT.toLocaleString('en')}: positive adds, negative removes. Milestone roles reached are given within seconds; none is taken back.`}
        value={values?.get(INVITE_FIELDS.amount) ?? ''}
        maxLength={8}
        required
        problem={problem}
      />
      <TextField name={INVITE_FIELDS.reason} label="Reason (optional)" hint="At most 200 characters; kept in the audit log." value={values?.get(INVITE_FIELDS.reason) ?? ''} maxLength={200} problem={problem} />
      <p>
        <button type="submit">Give the bonus</button>
      </p>
    </form>
  );
}

/** A member as an inviter (the API's GET /invites/members/{userId}) and the bonus form. */
export function InviteMemberPage(props: { viewer: Viewer; guild: GuildRecord; member: InviteMemberBody; name: string | undefined; form?: FormState }) {
  const { guild, member } = props;
  const s = member.season;
  return (
    <Layout title={`Invites of ${props.name ?? member.userId}`} viewer={props.viewer} server={invitesNav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <InviteLinks guild={guild} />
      <dl data-invite-member={member.userId}>
        <dt>Invites (verified + bonus)</dt>
        <dd data-invites>{member.invites}</dd>
        <dt>Rank</dt>
        <dd>{member.rank ?? 'not ranked (no invites)'}</dd>
        <dt>Verified</dt>
        <dd>{member.verified}</dd>
        <dt>Pending</dt>
        <dd>{member.pending}</dd>
        <dt>Left</dt>
        <dd>{member.left}</dd>
        <dt>Fake</dt>
        <dd>{member.fake}</dd>
        <dt>Bonus</dt>
        <dd data-bonus>{member.bonus}</dd>
        <dt>All attributed joins</dt>
        <dd>{member.total}</dd>
        <dt>This season</dt>
        <dd data-season-invites>{s ? `${s.invites} invites, rank ${s.rank ?? '—'} (season ${s.number}${s.name ? `, ${s.name}` : ''})` : 'No season is running.'}</dd>
      </dl>
      <BonusForm viewer={props.viewer} guild={guild} userId={member.userId} form={props.form} />
    </Layout>
  );
}
