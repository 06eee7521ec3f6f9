import { describe, expect, it } from 'vitest';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint, recordAttempt } from '../../db/webhooks/webhooks.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { consoleClient, managedGuild } from './consoleClient.js';

const NOW = new Date('2026-04-10T12:30:00.000Z');
const HOUR = 3_600_000;
const { database, app } = useApiTestBed({ now: NOW, temporal: true, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

/** Logs attempts to the endpoint, each `hoursAgo` before the clock's now, with its status code (null: no answer). */
async function attempts(guildId: string, endpointId: number, list: Array<{ hoursAgo: number; code: number | null }>) {
  for (const a of list) {
    const event = await insertEvent(database.db, { type: 'members.joined', guildId, createdAt: NOW, data: {} });
    const delivery = await database.db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', event.id).where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
    const attemptedAt = new Date(NOW.getTime() - a.hoursAgo * HOUR);
    await recordAttempt(database.db, { deliveryId: delivery.id, attempt: 1, attemptedAt, durationMs: 4, statusCode: a.code, error: a.code ? null : 'timeout', responseExcerpt: null });
  }
}

async function setUp() {
  const guild = await managedGuild(database.db);
  const busy = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/busy', events: ['members.joined'], secret: 'whsec_1' });
  const quiet = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/quiet', events: ['members.left'], secret: 'whsec_2' });
  await attempts(guild.id, busy.id, [
    { hoursAgo: 30, code: 200 }, // before the window: counts in no figure but the last status, were it the latest
    { hoursAgo: 20.5, code: 204 },
    { hoursAgo: 20.25, code: 500 },
    { hoursAgo: 2.5, code: 200 },
    { hoursAgo: 0.25, code: null },
    { hoursAgo: -1, code: 200 }, // logged on a clock ahead of the service's: not yet, by the injected clock
  ]);
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, busy, quiet, client };
}

const rowOf = (page: string, id: number) => new RegExp(`<tr data-endpoint-id="${id}">(.*?)</tr>`, 's').exec(page)?.[1] ?? '';

describe('endpoint health', () => {
  it('shows in the list each endpoint’s success rate over the last 24 hours and its latest answer, by the service’s clock', async () => {
    const { guild, busy, quiet, client } = await setUp();
    const page = (await client.get(`/console/servers/${guild.id}/webhooks`)).text;
    const busyRow = rowOf(page, busy.id);
    // 4 attempts in the window, 2 delivered.
    expect(busyRow).toContain('data-success-rate="50%">50% of 4 delivered (24 h)');
    expect(busyRow).toContain('data-last-status="none">last: no answer at <time datetime="2026-04-10T12:15:00.000Z"');
    expect(rowOf(page, quiet.id)).toContain('no attempt in 24 h');
  });

  it('draws attempts per hour by outcome on the endpoint’s page, as an SVG with a title, a summary and the figures as a table', async () => {
    const { guild, busy, client } = await setUp();
    const page = (await client.get(`/console/servers/${guild.id}/webhooks/${busy.id}`)).text;
    const chart = /<svg viewBox[^>]*data-chart="attempts-by-hour">(.*?)<\/svg>/s.exec(page)?.[1] ?? '';
    expect(page).toMatch(/<svg [^>]*role="img" aria-labelledby="attempt-chart-title attempt-chart-desc"/);
    expect(chart).toContain('<title id="attempt-chart-title">Attempts per hour by outcome, last 24 hours (UTC)</title>');
    expect(chart).toContain('4 attempts in the last 24 hours: 2 delivered (2xx), 1 refused (another HTTP status), 1 no answer (timeout, connection).');
    const bars = (hour: string) => [...(new RegExp(`<g data-hour="${hour}">(.*?)</g>`, 's').exec(chart)?.[1] ?? '').matchAll(/data-outcome="(\w+)"/g)].map((m) => m[1]);
    expect(bars('2026-04-09T16:00:00.000Z')).toEqual(['delivered', 'rejected']);
    expect(bars('2026-04-10T10:00:00.000Z')).toEqual(['delivered']);
    expect(bars('2026-04-10T12:00:00.000Z')).toEqual(['noAnswer']);
    expect(bars('2026-04-10T11:00:00.000Z')).toEqual([]);
    expect([...chart.matchAll(/<g data-hour=/g)]).toHaveLength(24);
    expect(page).toContain('<th scope="row">2026-04-09 16:00</th><td>1</td><td>1</td><td>0</td>');
    // No inline style anywhere (the CSP forbids it): colours are SVG attributes.
    expect(page).not.toContain('style=');
  });
});
