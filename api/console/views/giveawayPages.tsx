import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import type { GiveawayBody, GiveawayDetailBody, GiveawayEntriesBody } from '../../../src/giveaways/contract.js';
import { DataTable } from './dataTable.js';
import { giveawaysPath } from './giveawayStartPage.js';
import { isoTimeOrDash as when, Layout, type Viewer } from './layout.js';
import { ListView, optionsOf } from './listView.js';
import { OlderLink } from './olderLink.js';
import { nameOf, type Names } from './ticketPages.js';

/** The list's filters: every status (the default), `open` (scheduled or active, as in the API), or one status. */
export const GIVEAWAY_FILTERS = ['all', 'open', 'scheduled', 'active', 'ended', 'cancelled'] as const;

export const giveawayPath = (guildId: string, id: number) => `${giveawaysPath(guildId)}/${id}`;
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'giveaways' as const });
export const channelName = (directory: ServerDirectory, id: string) => {
  const channel = directory.channels.find((c) => c.id === id);
  return channel ? `#${channel.name}` : id;
};
const roleNames = (directory: ServerDirectory, ids: string[]) => ids.map((id) => `@${directory.roles.find((r) => r.id === id)?.name ?? id}`).join(', ');
const people = (names: Names, ids: string[]) => (ids.length === 0 ? 'none' : ids.map((id) => nameOf(names, id)).join(', '));

export function GiveawaysPage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; status: string; giveaways: GiveawayBody[]; nextHref: string | null }) {
  const { guild, directory } = props;
  return (
    <Layout title="Giveaways" viewer={props.viewer} server={nav(guild)}>
      <p>
        <a href={`${giveawaysPath(guild.id)}/new`}>Start a giveaway</a>
      </p>
      <ListView
        filter={{
          action: giveawaysPath(guild.id),
          id: 'giveaway-status',
          options: optionsOf(GIVEAWAY_FILTERS, { all: 'any', open: 'scheduled or active' }),
          current: props.status,
        }}
        caption="Giveaways: running ones by end time, then the others newest first"
        columns={['Giveaway', 'Prize', 'Status', 'Channel', 'Ends', 'Entrants', 'Winners']}
        rows={props.giveaways}
        empty={{
          name: 'giveaways',
          text: props.status === 'all' ? 'No giveaway yet. Start one: the bot posts it in the channel you pick.' : 'No giveaway has this status.',
        }}
        row={(g) => (
          <tr data-giveaway={String(g.id)}>
            <td>
              <a href={giveawayPath(guild.id, g.id)}>#{g.id}</a>
            </td>
            <td>{g.prize}</td>
            <td data-status={g.status}>{g.status}</td>
            <td>{channelName(directory, g.channelId)}</td>
            <td>{when(g.endsAt)}</td>
            <td>{g.entrants}</td>
            <td>
              {g.winnerIds.length} of {g.winnersCount}
            </td>
          </tr>
        )}
        older={{ href: props.nextHref, label: 'More giveaways' }}
      />
    </Layout>
  );
}

function RequirementList(props: { g: GiveawayDetailBody; directory: ServerDirectory }) {
  const r = props.g.requirements;
  const items = [
    r.roleIds.length > 0 && `${r.roleMode === 'all' ? 'Every one of' : 'One of'} ${roleNames(props.directory, r.roleIds)}`,
    r.blockedRoleIds.length > 0 && `None of ${roleNames(props.directory, r.blockedRoleIds)}`,
    r.minAccountAgeDays > 0 && `An account at least ${r.minAccountAgeDays} days old`,
    r.minMemberDays > 0 && `In the server for at least ${r.minMemberDays} days`,
    r.minLevel > 0 && `Level ${r.minLevel} or more`,
    r.entryCost > 0 && `Entry costs ${r.entryCost}`,
    ...r.bonusRoles.map((b) => `${b.entries} entries with ${roleNames(props.directory, [b.roleId])}`),
  ].filter((x): x is string => typeof x === 'string');
  if (items.length === 0) return <p data-requirements="none">Anyone in the server may enter, for free.</p>;
  return (
    <ul data-requirements>
      {items.map((i) => (
        <li>{i}</li>
      ))}
    </ul>
  );
}

export function GiveawayPage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; giveaway: GiveawayDetailBody; entries: GiveawayEntriesBody; names: Names; nextHref: string | null }) {
  const { guild, directory, names, giveaway: g } = props;
  const path = giveawayPath(guild.id, g.id);
  return (
    <Layout title={`Giveaway #${g.id}: ${g.prize}`} viewer={props.viewer} server={nav(guild)}>
      <dl>
        <dt>Status</dt>
        <dd data-status={g.status}>{g.status}</dd>
        <dt>Channel</dt>
        <dd>
          {channelName(directory, g.channelId)}
          {g.messageUrl ? (
            <>
              {' '}
              (<a href={g.messageUrl}>the message</a>)
            </>
          ) : (
            ' (not posted yet)'
          )}
        </dd>
        <dt>Host</dt>
        <dd>{nameOf(names, g.hostId)}</dd>
        <dt>Runs</dt>
        <dd>
          {when(g.startsAt)} to {when(g.endsAt)}
        </dd>
        {g.endedAt && (
          <>
            <dt>Ended</dt>
            <dd>{when(g.endedAt)}</dd>
          </>
        )}
        <dt>Winners</dt>
        <dd data-winners>
          {people(names, g.winnerIds)} ({g.winnersCount} to draw)
        </dd>
        <dt>Entries</dt>
        <dd>
          {g.entryCounts.entrants} entrants, {g.entryCounts.entries} entries ({g.entryCounts.bonusEntries} bonus)
        </dd>
      </dl>
      {g.status === 'active' && (
        <p>
          <a href={`${path}/end`}>End now and draw the winners</a>
        </p>
      )}
      {g.status === 'ended' && (
        <p>
          <a href={`${path}/reroll`}>Reroll winners</a>
        </p>
      )}
      <h2>Requirements</h2>
      <RequirementList g={g} directory={directory} />
      <h2>Draws</h2>
      <DataTable
        caption="Draws, first first"
        columns={['Draw', 'Drawn', 'Winners', 'Replaced', 'Short']}
        rows={g.draws}
        empty={{ name: 'draws', text: 'No draw yet: the winners are drawn when the giveaway ends.' }}
        row={(d) => (
          <tr data-draw={String(d.drawNumber)}>
            <td>
              #{d.drawNumber} ({d.kind})
            </td>
            <td>{when(d.drawnAt)}</td>
            <td>{people(names, d.winnerIds)}</td>
            <td>{d.replacedUserIds.length === 0 ? '—' : people(names, d.replacedUserIds)}</td>
            <td>{d.shortfall}</td>
          </tr>
        )}
      />
      <h2>Entrants</h2>
      <DataTable
        caption="Entrants, first entered first"
        columns={['Member', 'Entries', 'Paid', 'Entered']}
        rows={props.entries.items}
        empty={{ name: 'entrants', text: g.status === 'cancelled' ? 'Nobody: the giveaway was cancelled and its entries refunded.' : 'Nobody has entered yet. Members enter with the button on the giveaway message.' }}
        row={(e) => (
          <tr data-entrant={e.userId}>
            <td>{nameOf(names, e.userId)}</td>
            <td>{e.tickets}</td>
            <td>{e.entryCost}</td>
            <td>{when(e.enteredAt)}</td>
          </tr>
        )}
      />
      <OlderLink href={props.nextHref} label="More entrants" />
      <p>
        <a href={giveawaysPath(guild.id)}>Back to the giveaways</a>
      </p>
    </Layout>
  );
}
