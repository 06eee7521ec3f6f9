import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../process/infra/fakeDiscord/rateLimits.js';
import { addGuild, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

// The fake's rate limits as Discord documents them (https://discord.com/developers/docs/topics/rate-limits): the
// counting on an injected clock, the headers over HTTP.

describe('the fake enforces rate limits by default, with the headers Discord sends', () => {
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await startFakeDiscord();
  });
  afterAll(() => fake.close());

  it('answers every request with its bucket, one id per route whatever the server', async () => {
    const [a, b] = [snowflake(), snowflake()];
    for (const id of [a, b]) addGuild(fake.state, { id, name: 'Limits', ownerId: snowflake(), roles: [], channels: [], members: [{ id: fake.state.bot.id, username: 'Community Bot', bot: true }] });
    const read = (id: string) => fetch(`${fake.apiUrl}/v10/guilds/${id}/roles`, { headers: { Authorization: `Bot ${fake.token}` } });
    const [first, second] = [await read(a), await read(b)];
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('10');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('9');
    expect(Number(first.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(first.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    expect(second.headers.get('x-ratelimit-bucket')).toBe(first.headers.get('x-ratelimit-bucket'));
    expect(second.headers.get('x-ratelimit-remaining')).toBe('9');
  });
});

describe('the fake rate limiter', () => {
  let at = 0;
  const now = () => at;

  it('refuses past a bucket with scope user until the window resets, per major parameter', () => {
    const limiter = createRateLimiter({ route: { limit: 2, windowMs: 5_000 } }, now);
    at = 1_000;
    expect(limiter.check('POST /channels/:channel/messages', '1').refusal).toBeUndefined();
    expect(limiter.check('POST /channels/:channel/messages', '1').headers['X-RateLimit-Remaining']).toBe('0');
    at = 2_000;
    const refused = limiter.check('POST /channels/:channel/messages', '1').refusal!;
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ 'X-RateLimit-Scope': 'user', 'Retry-After': '4', 'X-RateLimit-Reset-After': '4.000' });
    expect(refused.body).toEqual({ message: 'You are being rate limited.', retry_after: 4, global: false });
    expect(limiter.check('POST /channels/:channel/messages', '2').refusal).toBeUndefined();
    at = 6_000;
    expect(limiter.check('POST /channels/:channel/messages', '1').refusal).toBeUndefined();
  });

  it('refuses past the global limit with scope global, and leaves interaction callbacks out of it', () => {
    const limiter = createRateLimiter({ globalPerSecond: 2 }, now);
    at = 10_000;
    limiter.check('GET /guilds/:guild', '1');
    limiter.check('GET /users/@me', '');
    const refused = limiter.check('GET /guilds/:guild/roles', '1').refusal!;
    expect(refused.headers).toMatchObject({ 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global', 'Retry-After': '1' });
    expect(refused.body).toMatchObject({ global: true });
    expect(limiter.check('POST /interactions/:interaction/:token/callback', 'token').refusal).toBeUndefined();
  });

  it("answers a shared bucket's 429 with scope shared", () => {
    const limiter = createRateLimiter({ route: { limit: 10, windowMs: 1_000 }, shared: { routes: ['PUT /guilds/:guild/members/:user/roles/:role'], limit: 1, windowMs: 60_000 } }, now);
    at = 20_000;
    expect(limiter.check('PUT /guilds/:guild/members/:user/roles/:role', '1').headers['X-RateLimit-Limit']).toBe('1');
    expect(limiter.check('PUT /guilds/:guild/members/:user/roles/:role', '1').refusal!.headers).toMatchObject({ 'X-RateLimit-Scope': 'shared', 'Retry-After': '60' });
    expect(limiter.check('GET /guilds/:guild/roles', '1').refusal).toBeUndefined();
  });
});
