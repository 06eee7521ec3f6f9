import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDeliverableAddress } from '../../src/webhooks/addressPolicy.js';
import { refuseEndpointUrl } from '../../src/webhooks/endpointUrl.js';
import { createGuardedDispatcher } from '../../src/webhooks/guardedDispatcher.js';

describe('address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'CGNAT'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['::7f00:1', 'IPv4-compatible (in ::/8)'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['not-an-ip', 'garbage'],
  ])('refuses %s (%s)', (address) => {
    expect(isDeliverableAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14'])('accepts public %s', (address) => {
    expect(isDeliverableAddress(address)).toBe(true);
  });

  it('accepts loopback only with the local-development setting', () => {
    expect(isDeliverableAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isDeliverableAddress('::1', { allowLoopback: true })).toBe(true);
    expect(isDeliverableAddress('10.0.0.1', { allowLoopback: true })).toBe(false);
  });
});

describe('endpoint URL rules', () => {
  const strict = { allowInsecureLocal: false };
  it.each([
    ['http://hooks.example.com/x', 'must use https://'],
    ['https://user:pw@hooks.example.com/x', 'must not carry a user name or password'],
    ['https://127.0.0.1/x', 'points to a private or internal address'],
    ['https://[::1]/x', 'points to a private or internal address'],
    ['https://[::ffff:192.168.0.1]/x', 'points to a private or internal address'],
    ['https://localhost/x', 'points to a private or internal address'],
    ['ftp://hooks.example.com', 'must use https://'],
    ['not a url', 'not a valid URL'],
  ])('refuses %s', (url, reason) => {
    expect(refuseEndpointUrl(url, strict)).toBe(reason);
  });

  it('accepts a public https URL, and http on loopback only with the local setting', () => {
    expect(refuseEndpointUrl('https://hooks.example.com/webhooks', strict)).toBeUndefined();
    expect(refuseEndpointUrl('http://127.0.0.1:8080/x', { allowInsecureLocal: true })).toBeUndefined();
  });
});

describe('guarded dispatcher (checks the address actually dialled)', () => {
  let url: string;
  const server = createServer((_req, res) => res.end('ok'));
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a literal loopback address before connecting', async () => {
    const dispatcher = createGuardedDispatcher({ allowLoopback: false, connectTimeoutMs: 2_000 });
    await expect(request(url, { dispatcher })).rejects.toThrow(/not a public address/);
  });

  it('refuses a name whose DNS answer is loopback, at connect time', async () => {
    const dispatcher = createGuardedDispatcher({ allowLoopback: false, connectTimeoutMs: 2_000 });
    await expect(request(url.replace('127.0.0.1', 'localhost'), { dispatcher })).rejects.toThrow(/not a public address/);
  });

  it('delivers to loopback with the local-development setting', async () => {
    const dispatcher = createGuardedDispatcher({ allowLoopback: true, connectTimeoutMs: 2_000 });
    const res = await request(url.replace('127.0.0.1', 'localhost'), { dispatcher });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('ok');
  });
});
