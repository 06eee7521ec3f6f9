import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock, systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/logger.js';
import { createBanLatch } from '../../../src/platform/discord/banLatch.js';
import { createDiscordPlatform } from '../../../src/platform/discord/discordPlatform.js';
import { cloudflareBan, discordError, missingPermissions, startFakeDiscord } from '../../../process/infra/fakeDiscord/index.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createDiscordGuild, discordPlatformOn } from '../../harness/discordGuild.js';
import { bearer } from '../../harness/fixtures.js';
import { startTestApp } from '../../harness/testApp.js';
import type { Platform } from '../../../src/core/platform.js';

// A read the api makes of Discord that Discord refuses (the bot lacks a permission, a request it will never accept,
// a refused token) answers 503 SERVICE_UNAVAILABLE with Retry-After (docs/api-decisions.md), never 500.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const { db } = useApiTestBed();

async function app(platform: Platform = discordPlatformOn(fake)) {
  const started = await startTestApp(db(), { deps: { platform } });
  afterAll(() => started.close());
  return started;
}

describe('a ban stop (Discord answered a Cloudflare 429)', () => {
  it('answers reads 503 with Retry-After the seconds left of the stop, and sends nothing to Discord meanwhile', async () => {
    const clock = fixedClock(new Date('2026-06-01T12:00:00.000Z'));
    const logger = createLogger('silent', 'api-test');
    const latch = createBanLatch({ clock, logger });
    const { http } = await app(createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock, logger, latch }));
    const g = await createDiscordGuild(db(), fake);
    fake.fail({ method: 'GET', path: `/guilds/${g.id}/roles`, answer: cloudflareBan(600) });
    expect((await http('GET', `/guilds/${g.id}/roles`, { headers: bearer(g.key) })).status).toBe(503);
    clock.advance(400_000);
    const before = fake.requests.length;
    const res = await http('GET', `/guilds/${g.id}/channels`, { headers: bearer(g.key) });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('200');
    expect(fake.requests.length).toBe(before);
  });
});

describe('platform refusals during api reads', () => {
  it('Missing Permissions on the roles read: 503 with Retry-After 60 and a message naming the refusal', async () => {
    const { http } = await app();
    const g = await createDiscordGuild(db(), fake);
    fake.fail({ method: 'GET', path: `/guilds/${g.id}/roles`, answer: missingPermissions() });
    const res = await http('GET', `/guilds/${g.id}/roles`, { headers: bearer(g.key) });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('refused') });
    expect(res.body.message).not.toMatch(/50013|Discord/);
  });

  it('Missing Access on a member read and any other refusal on a channels read: 503, not 500', async () => {
    const { http } = await app();
    const g = await createDiscordGuild(db(), fake);
    const member = g.addMember();
    fake.fail({ method: 'GET', path: `/guilds/${g.id}/members/${member}`, answer: discordError(403, 50001, 'Missing Access') });
    fake.fail({ method: 'GET', path: `/guilds/${g.id}/channels`, answer: discordError(400, 50035, 'Invalid Form Body') });
    for (const path of [`/guilds/${g.id}/members/${member}`, `/guilds/${g.id}/channels`]) {
      const res = await http('GET', path, { headers: bearer(g.key) });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('60');
    }
  });

  it("a moderation write whose member check is refused: 503, no action stored, nothing written to Discord", async () => {
    const { http } = await app();
    const g = await createDiscordGuild(db(), fake);
    const target = g.addMember();
    fake.fail({ method: 'GET', path: `/guilds/${g.id}/members/${target}`, answer: missingPermissions() });
    const before = fake.requests.length;
    const res = await http('POST', `/guilds/${g.id}/moderation/users/${target}/kick`, { headers: bearer(g.key), body: { reason: 'x' } });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('60');
    expect(await db().selectFrom('moderation_actions').select('action_id').where('guild_id', '=', g.id).execute()).toEqual([]);
    expect(fake.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    expect(fake.state.guilds.get(g.id)!.members.has(target)).toBe(true);
  });

  it('a refused bot token (401): reads answer 503 with Retry-After 5, as an unreachable platform', async () => {
    const refused = createDiscordPlatform({
      token: 'bm90LXRoZS10b2tlbg.ZmFrZQ.d3Jvbmc',
      apiUrl: fake.apiUrl,
      clock: systemClock,
      logger: createLogger('silent', 'discord-test'),
    });
    const { http } = await app(refused);
    const g = await createDiscordGuild(db(), fake);
    for (const path of [`/guilds/${g.id}/roles`, `/guilds/${g.id}/roles`]) {
      const res = await http('GET', path, { headers: bearer(g.key) });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('5');
    }
  });
});
