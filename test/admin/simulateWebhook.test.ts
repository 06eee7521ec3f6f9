import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { eventEnvelope } from '../../src/events/contract.js';
import { verifyWebhook } from '../../src/webhooks/verifyWebhook.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { snowflake } from '../harness/fixtures.js';
import { startReceiver } from '../harness/receiver.js';
import { testGateway, useTestWorker } from '../harness/temporal.js';
import { cli, cliGuild } from './cli.js';

const database = useTestDatabase();
const gateway = testGateway();
useTestWorker(() => database.db, gateway);
// As on the dev database: a loopback http:// receiver may be registered, and events start their fan-out at once.
const admin = cli(() => database.db, systemClock, { temporal: gateway, allowInsecureWebhookUrls: true });

describe('simulate, through to a webhook receiver', () => {
  it('delivers the events of simulated bot actions, signed, to an http://127.0.0.1 endpoint registered with the CLI', async () => {
    const receiver = await startReceiver([200]);
    try {
      const { id } = await cliGuild(admin, { features: 'all' });
      const added = await admin('webhook', 'add', '--guild', id, '--url', receiver.url, '--events', 'members.joined,levels.levelUp', '--json');
      expect(added.stderr).toBe('');
      const { secret } = added.json();

      const user = snowflake();
      const joined = await admin('simulate', 'member-join', '--guild', id, '--user', user, '--username', 'zoe', '--json');
      expect(joined.json().fanout).toBe('started');
      const levelUp = await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--messages', '5', '--json');
      expect(levelUp.json()).toMatchObject({ level: 1, fanout: 'started' });

      await eventually(async () => receiver.received.length, (n) => n >= 2);
      const bodies = receiver.received.map((r) => {
        expect(verifyWebhook(r.body, r.headers, secret).ok).toBe(true);
        return JSON.parse(r.body);
      });
      const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
      expect(eventEnvelope('members.joined').strict().parse(byType['members.joined'])).toEqual({
        id: joined.json().events[0].id,
        type: 'members.joined',
        createdAt: expect.any(String),
        guildId: id,
        data: joined.json().events[0].data,
      });
      expect(eventEnvelope('levels.levelUp').strict().parse(byType['levels.levelUp'])).toMatchObject({
        id: levelUp.json().events[0].id,
        guildId: id,
        data: { userId: user, level: 1, previousLevel: 0, source: 'activity' },
      });
      const events = await database.db.selectFrom('events').select('fanout_started_at').where('guild_id', '=', id).execute();
      expect(events.every((e) => e.fanout_started_at !== null)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
