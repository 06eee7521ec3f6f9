import type { GuildRecord } from '../../../db/guild/guilds.js';
import { Layout, type Viewer } from './layout.js';

export function ServersPage(props: { viewer: Viewer; servers: GuildRecord[] }) {
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
              <a href={`/console/servers/${s.id}/keys`}>{s.name}</a> <span class="muted">({s.plan})</span>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
