import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { attachFakeGateway, startFakeDiscord, type FakeDiscord, type FakeGateway } from '../../process/infra/fakeDiscord/index.js';

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
beforeEach(async () => {
  fake = await startFakeDiscord();
  gateway = attachFakeGateway(fake, { heartbeatIntervalMs: 1234, disallowedIntents: 1 << 1 });
});
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
});
