import type { ComponentChildren } from 'preact';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { z } from '../../../src/core/zod.js';
import type { ModCaseBody, ModCaseDetail } from '../../../src/moderation/contract.js';
import { durationText } from './durationText.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { OlderLink } from './olderLink.js';
import { memberOf, moderationPath, moderatorOf, nav, newActionPath, stateOf } from './moderationPages.js';
import { nameOf, type Names } from './ticketPages.js';

type CaseEvent = z.infer<typeof ModCaseDetail>['events'][number];

/** One page of the timeline: the latest events first, each page in reading order, the earlier ones linked above it. */
export interface TimelinePage {
  events: CaseEvent[];
  earlierHref: string | null;
}

const field = (data: unknown, key: string) => (data && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined);
const DM_STATUS = { sent: 'sent', failed: 'could not be delivered (the member does not accept direct messages)', off: 'not sent (off in the settings)' } as const;

/** One timeline entry in words; an event type this page does not know is shown by its type and data as recorded. */
function describeEvent(e: CaseEvent, guildId: string): ComponentChildren {
  const caseLink = (n: unknown) => (typeof n === 'number' ? <a href={`${moderationPath(guildId)}/cases/${n}`}>case #{n}</a> : 'another case');
  switch (e.type) {
    case 'created':
      return 'Recorded';
    case 'dm':
      return `Direct message to the member ${DM_STATUS[field(e.data, 'status') as keyof typeof DM_STATUS] ?? String(field(e.data, 'status'))}`;
    case 'escalated':
      return <>Escalated to {caseLink(field(e.data, 'caseNumber'))} ({String(field(e.data, 'action'))})</>;
    case 'revoked':
      return <>Revoked by {caseLink(field(e.data, 'byCase'))}</>;
    case 'expired':
      return 'Ran out';
    default:
      return `${e.type.replaceAll('_', ' ')}: ${JSON.stringify(e.data)}`;
  }
}

export function CasePage(props: { viewer: Viewer; guild: GuildRecord; found: ModCaseBody; timeline: TimelinePage; names: Names }) {
  const { guild, found: c, names } = props;
  return (
    <Layout title={`Case #${c.number}: ${c.action}`} viewer={props.viewer} server={nav(guild)}>
      <dl data-case={String(c.number)}>
        <dt>Member</dt>
        <dd>
          {memberOf(c, names)} <span class="muted">({c.userId})</span>
        </dd>
        <dt>Moderator</dt>
        <dd>{moderatorOf(c, names)}</dd>
        <dt>Source</dt>
        <dd data-source={c.source}>{c.source}</dd>
        <dt>Reason</dt>
        <dd>{c.reason ?? '—'}</dd>
        {c.durationSeconds !== null && (
          <>
            <dt>Duration</dt>
            <dd>{durationText(c.durationSeconds)}</dd>
          </>
        )}
        <dt>State</dt>
        <dd>{stateOf(c)}</dd>
        <dt>Direct message</dt>
        <dd>{c.dmStatus ?? '—'}</dd>
        <dt>Evidence</dt>
        <dd>
          {c.evidence.length === 0 ? (
            '—'
          ) : (
            <ul>
              {c.evidence.map((link) => (
                <li>
                  <a href={link} rel="noopener noreferrer nofollow">
                    {link}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <h2>Timeline</h2>
      <OlderLink href={props.timeline.earlierHref} label="Earlier events" />
      <ol class="timeline" data-timeline>
        {props.timeline.events.map((e) => (
          <li data-event={e.type}>
            {e.createdAt ? isoTime(new Date(e.createdAt)) : '—'}: {describeEvent(e, guild.id)}
            {e.actorId && <> by {nameOf(names, e.actorId)}</>}
          </li>
        ))}
      </ol>
      <p>
        <a href={newActionPath(guild.id, c.userId)}>Take an action on this member</a> · <a href={moderationPath(guild.id)}>Back to the cases</a>
      </p>
    </Layout>
  );
}
