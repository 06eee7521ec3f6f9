import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { DeliveryView } from '../../../src/webhooks/readDeliveries.js';
import { AttemptTable } from './attemptTable.js';
import { FormFields } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';

const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'webhooks' as const });

/** `temporalRunHref` only for operators (CONSOLE_OPERATOR_USER_IDS): links into Temporal UI. */
export function DeliveryPage(props: { viewer: Viewer; guild: GuildRecord; delivery: DeliveryView; temporalRunHref?: (workflowId: string) => string }) {
  const { guild, delivery: d, temporalRunHref } = props;
  let body = d.body;
  try {
    body = JSON.stringify(JSON.parse(d.body), null, 2);
  } catch {
    // Shown as stored.
  }
  return (
    <Layout title={`Delivery #${d.id}`} viewer={props.viewer} server={nav(guild)}>
      <p>
        <a href={`/console/servers/${guild.id}/webhooks/${d.endpointId}/deliveries`}>Back to the deliveries</a>
      </p>
      <dl>
        <dt>Event</dt>
        <dd>
          {d.eventType} <code>{d.eventId}</code>
        </dd>
        <dt>Status</dt>
        <dd data-status={d.status}>{d.status}</dd>
        <dt>Next scheduled attempt</dt>
        <dd data-next-attempt>{d.nextAttemptAt ? isoTime(d.nextAttemptAt) : 'none'}</dd>
        {temporalRunHref && (
          <>
            <dt>Runs in Temporal UI (operators)</dt>
            <dd data-temporal-runs>
              {d.workflowIds.length === 0
                ? 'none yet'
                : d.workflowIds.map((id) => (
                    <>
                      <a href={temporalRunHref(id)}>{id}</a>{' '}
                    </>
                  ))}
            </dd>
          </>
        )}
      </dl>
      {d.status !== 'pending' && (
        <form method="post" action={`/console/servers/${guild.id}/deliveries/${d.id}/retry`}>
          <FormFields viewer={props.viewer} action={`/console/servers/${guild.id}/deliveries/${d.id}/retry`} />
          <button type="submit">{d.status === 'succeeded' ? 'Resend this delivery' : 'Retry this delivery'}</button>
        </form>
      )}
      <h2>Attempts</h2>
      <AttemptTable attempts={d.attemptLog} />
      <h2>Event body</h2>
      <pre>
        <code>{body}</code>
      </pre>
    </Layout>
  );
}
