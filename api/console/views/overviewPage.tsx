import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { AuditRecord } from '../../../db/shared/audit.js';
import type { ServerOverview } from '../../../src/console/serverOverview.js';
import { DailyChart } from './dailyChart.js';
import { FeatureItem } from './featurePanel.js';
import { isoTime, Layout, type Viewer } from './layout.js';

function who(e: AuditRecord, names: Map<string, string>): string {
  const name = (e.actorId && names.get(e.actorId)) ?? e.actorId;
  if (e.actorType === 'console_user') return `${name} (console)`;
  if (e.actorType === 'api_key') return `API key #${e.apiKeyId}${name ? ` for ${name}` : ''}`;
  if (e.actorType === 'operator') return `operator ${e.actorId ?? ''}`.trim();
  return 'the bot';
}

function BotStanding({ overview }: { overview: ServerOverview }) {
  const missing = overview.features.filter((f) => f.on && f.needs.some((n) => n.held === false)).length;
  return (
    <section aria-labelledby="bot-title">
      <h2 id="bot-title">The bot</h2>
      {overview.block && (
        <p class="notice warning" data-platform-block>
          Discord has stopped answering the service ({overview.block.reason}) until {isoTime(overview.block.until)}: actions wait and are carried out after it.
        </p>
      )}
      {overview.permissions === 'known' && (
        <p data-permissions="known">
          The bot is in this server. {missing === 0 ? 'It has every permission the features that are on need.' : `${missing} feature(s) that are on lack a permission: see below.`}
        </p>
      )}
      {overview.permissions === 'unknown' && (
        <p data-permissions="unknown">
          The bot is in this server. Its permissions are not known yet: the bot process records them when it connects to the server, so this page can then
          say what each feature lacks.
        </p>
      )}
      {overview.permissions === 'removed' && (
        <p class="warning" data-permissions="removed">
          The bot process last saw the bot removed from this server: invite it again for the features to work.
        </p>
      )}
    </section>
  );
}

export function OverviewPage(props: { viewer: Viewer; guild: GuildRecord; overview: ServerOverview }) {
  const { guild, overview, viewer } = props;
  const s = `/console/servers/${guild.id}`;
  return (
    <Layout title="Overview" viewer={viewer} server={{ id: guild.id, name: guild.name, active: 'overview' }}>
      <section aria-labelledby="plan-title">
        <h2 id="plan-title">Plan</h2>
        <p data-plan={guild.plan}>
          {guild.name} is on the <strong>{guild.plan === 'pro' ? 'Pro' : 'Free'}</strong> plan: up to {overview.limits.activeApiKeys}{' '}
          <a href={`${s}/keys`}>API keys</a> and {overview.limits.webhookEndpoints} <a href={`${s}/webhooks`}>webhook endpoints</a>. Every plan includes
          every feature.
        </p>
      </section>
      <BotStanding overview={overview} />
      <section aria-labelledby="features-title">
        <h2 id="features-title">Features</h2>
        <p class="muted">A feature that is off is not used by the bot, and the API answers its requests 409. Turning one off keeps its data.</p>
        <ul class="features">
          {overview.features.map((f) => (
            <FeatureItem viewer={viewer} guild={guild} state={f} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="pictures-title">
        <h2 id="pictures-title">The last {overview.members.days.length} days</h2>
        <DailyChart
          id="members-by-day"
          title="Members joined and left per day"
          figures={overview.members}
          series={[
            { key: 'joined', label: 'joined', fill: '#15803d' },
            { key: 'left', label: 'left', fill: '#b91c1c' },
          ]}
        />
        <DailyChart id="xp-by-day" title="XP earned from activity per day" figures={overview.xp} series={[{ key: 'xp', label: 'XP', fill: '#1d4ed8' }]} />
        <DailyChart
          id="deliveries-by-day"
          title="Webhook deliveries per day by outcome"
          stacked
          figures={overview.deliveries}
          series={[
            { key: 'succeeded', label: 'delivered', fill: '#15803d' },
            { key: 'failed', label: 'failed', fill: '#b91c1c' },
            { key: 'pending', label: 'still trying', fill: '#92400e' },
            { key: 'cancelled', label: 'cancelled', fill: '#6b7280' },
          ]}
        />
      </section>
      <section aria-labelledby="recent-title">
        <h2 id="recent-title">Recent activity</h2>
        {overview.recent.length === 0 ? (
          <p data-empty="recent">Nothing recorded yet: changes made here, through the API or by the bot appear here.</p>
        ) : (
          <ul class="recent">
            {overview.recent.map((e) => (
              <li data-audit-id={e.id}>
                {isoTime(e.createdAt)} {who(e, overview.names)}: <code>{e.action}</code>
                {e.targetType && <span class="muted"> {`${e.targetType} ${e.targetId ?? ''}`}</span>}
              </li>
            ))}
          </ul>
        )}
        <p>
          <a href={`${s}/audit`}>The whole audit log</a>
        </p>
      </section>
    </Layout>
  );
}
