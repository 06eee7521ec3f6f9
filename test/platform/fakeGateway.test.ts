import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { addGuild, attachFakeGateway, IDENTIFY_WINDOW_MS, startFakeDiscord, type FakeDiscord, type FakeGateway } from '../../process/infra/fakeDiscord/index.js';

// The fake gateway through a plain WebSocket client: what @discordjs/ws relies on, frame by frame.

interface Frame {
  op: number;
  d: any;
  s: number | null;
  t: string | null;
}

/** A client that queues every frame, so a test reads them in order without racing the socket. */
async function connect(url: string) {
  const ws = new WebSocket(`${url}?v=10&encoding=json`);
  const frames: Frame[] = [];
  const waiting: Array<(f: Frame) => void> = [];
  ws.on('message', (raw) => {
    const frame = JSON.parse(String(raw)) as Frame;
    const next = waiting.shift();
    if (next) next(frame);
    else frames.push(frame);
  });
  await once(ws, 'open');
  return {
    ws,
    next: () => (frames.length ? Promise.resolve(frames.shift()!) : new Promise<Frame>((resolve) => waiting.push(resolve))),
    send: (op: number, d: unknown) => ws.send(JSON.stringify({ op, d })),
  };
}

let fake: FakeDiscord;
let gateway: FakeGateway;
// The fake's clock for the resume window, moved by the tests.
let now = 0;
const RESUME_WINDOW_MS = 60_000;
beforeEach(async () => {
  now = 0;
  fake = await startFakeDiscord();
  gateway = attachFakeGateway(fake, { heartbeatIntervalMs: 1234, disallowedIntents: 1 << 1, resumeWindowMs: RESUME_WINDOW_MS, now: () => now });
});

/** A client that identified on shard `shard` of `count`; resolves with it and its session id. */
async function identified(shard: [number, number] = [0, 1]) {
  const c = await connect(gateway.url);
  await c.next();
  c.send(2, { token: fake.token, intents: 1, shard });
  const ready = await c.next();
  return { c, sessionId: ready.d.session_id as string };
}

/** A new connection's RESUME of `sessionId` from `seq`: the first frame it gets back. */
async function resumeFrom(sessionId: string, seq: number) {
  const c = await connect(gateway.url);
  await c.next();
  c.send(6, { token: fake.token, session_id: sessionId, seq });
  return { c, first: await c.next() };
}
afterEach(() => fake.close());

describe('the fake gateway', () => {
  it('is announced by GET /gateway/bot on the HTTP fake, with one shard and a session start limit', async () => {
    const res = await fetch(`${fake.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${fake.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      url: gateway.url,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: 1 },
    });
    expect(gateway.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  });

  it('says HELLO, answers IDENTIFY with READY pointing back at itself, and acknowledges heartbeats', async () => {
    const c = await connect(gateway.url);
    expect(await c.next()).toEqual({ op: 10, d: { heartbeat_interval: 1234 }, s: null, t: null });
    c.send(2, { token: fake.token, intents: 513, properties: {}, shard: [0, 1] });
    const ready = await c.next();
    expect(ready).toMatchObject({ op: 0, s: 1, t: 'READY', d: { v: 10, session_id: gateway.sessionOf()!.id, resume_gateway_url: gateway.url, shard: [0, 1] } });
    expect(ready.d.user).toMatchObject({ id: fake.state.bot.id, bot: true });
    expect(gateway.identifies).toEqual([{ token: fake.token, intents: 513, shard: [0, 1] }]);
    c.send(1, 1);
    expect(await c.next()).toEqual({ op: 11, d: null, s: null, t: null });
  });

  it('numbers dispatches on demand, asks for a reconnect, and closes with a given code', async () => {
    const c = await connect(gateway.url);
    await c.next();
    c.send(2, { token: fake.token, intents: 1 });
    await c.next();
    expect(gateway.dispatch('GUILD_MEMBER_ADD', { guild_id: '1', user: { id: '2' } })).toBe(2);
    expect(await c.next()).toEqual({ op: 0, s: 2, t: 'GUILD_MEMBER_ADD', d: { guild_id: '1', user: { id: '2' } } });
    gateway.reconnect();
    expect(await c.next()).toEqual({ op: 7, d: null, s: null, t: null });
    const closed = once(c.ws, 'close');
    const serverSide = once(gateway.events, 'closed');
    gateway.closeWith(4000, 'test');
    expect((await closed)[0]).toBe(4000);
    await serverSide;
    expect(gateway.connected()).toBe(false);
  });

  it('closes an IDENTIFY with a disallowed intent with 4014, and a wrong token with 4004, creating no session', async () => {
    const a = await connect(gateway.url);
    await a.next();
    a.send(2, { token: fake.token, intents: 1 | (1 << 1) });
    expect((await once(a.ws, 'close'))[0]).toBe(4014);
    const b = await connect(gateway.url);
    await b.next();
    b.send(2, { token: 'not.the.token', intents: 1 });
    expect((await once(b.ws, 'close'))[0]).toBe(4004);
    expect(() => gateway.dispatch('X', {})).toThrow('No gateway session');
  });

  it('resumes a dropped session: the events sent after the last seen sequence are replayed, then RESUMED', async () => {
    const a = await connect(gateway.url);
    await a.next();
    a.send(2, { token: fake.token, intents: 1 });
    const sessionId = (await a.next()).d.session_id as string;
    gateway.dispatch('MESSAGE_CREATE', { id: 'm2' });
    await a.next();
    const closed = once(a.ws, 'close');
    gateway.drop();
    await closed;
    // Sent while nobody is connected: Discord keeps them for the session's replay.
    gateway.dispatch('MESSAGE_CREATE', { id: 'm3' });
    gateway.dispatch('MESSAGE_CREATE', { id: 'm4' });
    const b = await connect(gateway.url);
    await b.next();
    b.send(6, { token: fake.token, session_id: sessionId, seq: 2 });
    expect([await b.next(), await b.next(), await b.next()]).toEqual([
      { op: 0, s: 3, t: 'MESSAGE_CREATE', d: { id: 'm3' } },
      { op: 0, s: 4, t: 'MESSAGE_CREATE', d: { id: 'm4' } },
      { op: 0, s: 5, t: 'RESUMED', d: {} },
    ]);
    expect(gateway.resumes).toEqual([{ sessionId, seq: 2 }]);
  });

  it('refuses to resume an unknown session with a non-resumable INVALID_SESSION', async () => {
    const c = await connect(gateway.url);
    await c.next();
    c.send(6, { token: fake.token, session_id: 'nope', seq: 3 });
    expect(await c.next()).toEqual({ op: 9, d: false, s: null, t: null });
    expect(gateway.identifies).toEqual([]);
  });

  it('keeps a session its client closed with a resumable code: what was sent meanwhile is replayed after the named sequence, READY never', async () => {
    const { c, sessionId } = await identified();
    gateway.dispatch('MESSAGE_CREATE', { id: 'm2' });
    await c.next();
    c.ws.close(4200, 'restarting');
    await once(gateway.events, 'closed');
    gateway.dispatch('MESSAGE_CREATE', { id: 'm3' });
    now += RESUME_WINDOW_MS;
    const { c: next, first } = await resumeFrom(sessionId, 0);
    expect([first, await next.next(), await next.next()]).toEqual([
      { op: 0, s: 2, t: 'MESSAGE_CREATE', d: { id: 'm2' } },
      { op: 0, s: 3, t: 'MESSAGE_CREATE', d: { id: 'm3' } },
      { op: 0, s: 4, t: 'RESUMED', d: {} },
    ]);
    expect(gateway.sessionOf()).toEqual({ id: sessionId, seq: 4, ended: null });
  });

  it.each([1000, 1001])('ends a session its client closes with %i: a later RESUME gets a non-resumable INVALID_SESSION', async (code) => {
    const { c, sessionId } = await identified();
    c.ws.close(code);
    await once(gateway.events, 'closed');
    const refused = once(gateway.events, 'invalid-session');
    expect((await resumeFrom(sessionId, 1)).first).toEqual({ op: 9, d: false, s: null, t: null });
    expect(await refused).toEqual([sessionId, `closed by the client with ${code}`]);
    expect(() => gateway.dispatch('MESSAGE_CREATE', {})).toThrow(`No gateway session on shard 0: the last one ended (closed by the client with ${code}).`);
  });

  it('refuses to resume a session whose connection went longer ago than the resume window', async () => {
    const { sessionId } = await identified();
    gateway.drop();
    await once(gateway.events, 'closed');
    gateway.dispatch('MESSAGE_CREATE', { id: 'lost' });
    now += RESUME_WINDOW_MS + 1;
    expect((await resumeFrom(sessionId, 1)).first).toEqual({ op: 9, d: false, s: null, t: null });
    expect(gateway.sessionOf()?.ended).toBe('resume window passed');
  });

  it('closes every connection with 4004 once the token is revoked, and every later IDENTIFY and RESUME', async () => {
    const { c, sessionId } = await identified();
    const closed = once(c.ws, 'close');
    gateway.revokeToken();
    expect((await closed)[0]).toBe(4004);
    const again = await connect(gateway.url);
    await again.next();
    again.send(2, { token: fake.token, intents: 1 });
    expect((await once(again.ws, 'close'))[0]).toBe(4004);
    const resumed = await connect(gateway.url);
    await resumed.next();
    resumed.send(6, { token: fake.token, session_id: sessionId, seq: 1 });
    expect((await once(resumed.ws, 'close'))[0]).toBe(4004);
  });

  it('asks for more shards: sessions with fewer are closed with 4011, GET /gateway/bot recommends the new count, and only an IDENTIFY with it is taken', async () => {
    const { c } = await identified([0, 1]);
    const closed = once(c.ws, 'close');
    gateway.requireShards(2);
    expect((await closed)[0]).toBe(4011);
    const info = await fetch(`${fake.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${fake.token}` } });
    expect(((await info.json()) as { shards: number }).shards).toBe(2);
    const fewer = await connect(gateway.url);
    await fewer.next();
    fewer.send(2, { token: fake.token, intents: 1, shard: [0, 1] });
    expect((await once(fewer.ws, 'close'))[0]).toBe(4011);
    // Past the 5 s identify window of the first IDENTIFY (shards of one rate-limit key with max_concurrency 1).
    now += IDENTIFY_WINDOW_MS;
    expect((await identified([1, 2])).sessionId).toMatch(/^fake-session-/);
  });

  it("lists the shard's servers in READY as unavailable and sends each one's GUILD_CREATE after it, a large one with the bot's member alone", async () => {
    const botRole = { id: '1100000000000000009', name: 'bot', position: 1 };
    // Shard of a server: (id >> 22) % 2. These ids are on shards 0 and 1.
    const [small, large, elsewhere] = [String(1000n << 22n), String(1_000_000n << 22n), String(1n << 22n)];
    const onShard = (id: string) => Number((BigInt(id) >> 22n) % 2n);
    const seedServer = (id: string, members: number) =>
      addGuild(fake.state, {
        id,
        name: `s${id}`,
        ownerId: '1100000000000000001',
        roles: [botRole],
        channels: [],
        members: [{ id: fake.state.bot.id, username: 'bot', bot: true, roles: [botRole.id] }, ...Array.from({ length: members }, (_, n) => ({ id: `12000000000000${String(n).padStart(5, '0')}`, username: `m${n}` }))],
      });
    seedServer(small, 3);
    seedServer(large, 60);
    seedServer(elsewhere, 1);
    const mine = [small, large, elsewhere].filter((id) => onShard(id) === 0);
    expect(mine).toEqual([small, large]);
    const c = await connect(gateway.url);
    await c.next();
    c.send(2, { token: fake.token, intents: 1, shard: [0, 2] });
    const ready = await c.next();
    expect(ready.d.guilds).toEqual(mine.map((id) => ({ id, unavailable: true })));
    const creates = [await c.next(), await c.next()];
    expect(creates.map((f) => [f.t, f.d.id, f.d.large, f.d.member_count, f.d.members.length])).toEqual([
      ['GUILD_CREATE', small, false, 4, 4],
      ['GUILD_CREATE', large, true, 61, 1],
    ]);
    expect(creates[1]!.d.members[0].user.id).toBe(fake.state.bot.id);
  });
});
