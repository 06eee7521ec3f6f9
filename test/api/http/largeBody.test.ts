import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { DISCARD_LIMIT_BYTES } from '../../../api/middleware/jsonBody.js';
import { addTestMember, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// A body far past the limit is answered 413 even though the server stops reading it: the client, which goes on
// sending, must always receive the answer (never a reset connection, EPIPE or ECONNRESET on its side).
const { database, app } = useApiTestBed();
const LIMIT = 65_536;
const ROUNDS = 50;

type Sent = { status: number; body: unknown } | { error: string; received: string };

/**
 * Sends the request over a raw socket as a simple client does: every byte of the body written first, then the
 * answer read until the server closes. An error before a whole answer arrived (EPIPE, ECONNRESET) is the outcome.
 */
function send(path: string, key: string, body: Buffer, chunked: boolean, close: boolean): Promise<Sent> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(app.baseUrl).port), '127.0.0.1');
    const received: Buffer[] = [];
    let settled = false;
    const settle = (outcome: Sent) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(outcome);
    };
    const answer = () => {
      const text = Buffer.concat(received).toString('utf8');
      const [head, payload] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      if (!head || Buffer.byteLength(payload) < length) return undefined;
      return { status: Number(head.split(' ')[1]), body: JSON.parse(payload) };
    };
    // Like a blocking client, the answer is read only once the whole body went out.
    let written = false;
    const settleAnswered = () => {
      const done = written && answer();
      if (done) settle(done);
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      settleAnswered();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => settle({ error: err.code ?? err.message, received: Buffer.concat(received).toString('utf8') }));
    // A server that stops reading leaves such a client stuck: bounded, so the test reports it instead of hanging.
    socket.setTimeout(10_000, () => settle({ error: 'no answer within 10 s', received: Buffer.concat(received).toString('utf8') }));
    socket.on('close', () => settle(answer() ?? { error: 'closed without an answer', received: Buffer.concat(received).toString('utf8') }));
    const head =
      `POST /api/v1${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      (close ? 'Connection: close\r\n' : '') +
      (chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${body.length}\r\n\r\n`);
    socket.write(head);
    if (!chunked) socket.write(body);
    else {
      for (let at = 0; at < body.length; at += 256 * 1024) {
        const part = body.subarray(at, at + 256 * 1024);
        socket.write(`${part.length.toString(16)}\r\n`);
        socket.write(part);
        socket.write('\r\n');
      }
      socket.write('0\r\n\r\n');
    }
    socket.write('', () => {
      written = true;
      settleAnswered();
    });
  });
}

describe('a body past the limit', () => {
  it.each([
    ['Content-Length', false, false],
    ['Content-Length and Connection: close', false, true],
    ['chunked', true, false],
    ['chunked and Connection: close', true, true],
  ])(`with %s: ${ROUNDS} rounds of 1 to 5 MB, every answer is 413 PAYLOAD_TOO_LARGE with the limit, nothing written`, async (_case, chunked, close) => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['bank:write'] });
    const userId = await addTestMember(database.db, guild);
    const before = await countWrites(database.db, guild.id);
    const outcomes: Sent[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const megabytes = 1 + (round % 5);
      const body = Buffer.from(JSON.stringify({ type: 'add', amount: 1, reason: 'x'.repeat(megabytes * 1024 * 1024) }));
      outcomes.push(await send(`/guilds/${guild.id}/bank/members/${userId}/transactions`, key, body, chunked, close));
    }
    const expected = { status: 413, body: { error: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(String(LIMIT)), limit: LIMIT } };
    expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => expected));
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('declared larger than the discard bound: 413 at once with Connection: close, without waiting for the body', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['bank:write'] });
    const userId = await addTestMember(database.db, guild);
    const socket = connect(Number(new URL(app.baseUrl).port), '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/v1/guilds/${guild.id}/bank/members/${userId}/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${DISCARD_LIMIT_BYTES + 1}\r\n\r\n{"type":"add"`,
    );
    await closed;
    const text = Buffer.concat(received).toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: expect.any(String), limit: LIMIT });
  });
});
