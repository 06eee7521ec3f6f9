import type { GuildRecord } from '../../../db/guild/guilds.js';
import { CsrfField, Layout, type Viewer } from './layout.js';

/** Where else the user is signed in, and the way to end those sessions (a lost laptop, a shared computer). */
function OtherSessions({ count, csrf }: { count: number; csrf: string }) {
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Your sessions</h2>
      {count === 0 ? (
        <p data-other-sessions="0">You are not signed in in any other browser.</p>
      ) : (
        <form method="post" action="/console/sign-out/others">
          <CsrfField token={csrf} />
          <p data-other-sessions={count}>
            You are also signed in in {count} other {count === 1 ? 'browser' : 'browsers'}.
          </p>
          <button type="submit">Sign out other sessions</button>
        </form>
      )}
    </section>
  );
}

export function ServersPage(props: { viewer: Viewer; servers: GuildRecord[]; otherSessions: number }) {
  return (
    <Layout title="Your servers" viewer={props.viewer}>
      {props.servers.length === 0 ? (
        <p data-empty="servers">
          No server to manage: the console lists the servers where you are the owner or have Manage Server (or Administrator) and the bot
          is present.
        </p>
      ) : (
        <ul class="servers">
          {props.servers.map((s) => (
            <li>
              <a href={`/console/servers/${s.id}/overview`}>{s.name}</a> <span class="muted">({s.plan})</span>
            </li>
          ))}
        </ul>
      )}
      <OtherSessions count={props.otherSessions} csrf={props.viewer.csrf} />
    </Layout>
  );
}
