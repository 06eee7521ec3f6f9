import { describe, expect, it } from 'vitest';
import { isDeliverableAddress, literalAddress } from '../../../src/webhooks/addressPolicy.js';

// test/webhooks/addressGuard.test.ts covers the common private, loopback and multicast ranges; these are the rest.
describe('isDeliverableAddress: special-purpose ranges', () => {
  it.each([
    ['192.0.2.1', 'TEST-NET-1 documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['240.0.0.1', 'reserved class E'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['64:ff9b::a00:1', 'NAT64 carrying 10.0.0.1'],
    ['2002:a00:1::', '6to4 carrying 10.0.0.1'],
    ['2001::1', 'Teredo'],
    ['100::1', 'IPv6 discard'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['::2', 'inside ::/8'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped cloud metadata'],
    ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback written in full'],
    ['2130706433', 'loopback as one decimal number'],
    ['0x7f.1', 'loopback in hex shorthand'],
    ['127.1', 'loopback in shorthand'],
    ['', 'empty'],
    ['1.2.3.4.5', 'five parts'],
  ])('refuses %s (%s)', (address) => {
    expect(isDeliverableAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('accepts public %s', (address) => {
    expect(isDeliverableAddress(address)).toBe(true);
    expect(isDeliverableAddress(address, { allowLoopback: true })).toBe(true);
  });
});

describe('isDeliverableAddress with allowLoopback', () => {
  it.each([
    ['127.255.255.254', true],
    ['::ffff:127.0.0.1', true],
    ['0:0:0:0:0:ffff:7f00:1', true],
    ['127.1', true],
    ['::', false],
    ['::7f00:1', false],
    ['::2', false],
    ['0.0.0.0', false],
    ['169.254.1.1', false],
    ['192.168.0.1', false],
    ['fc00::1', false],
    ['::ffff:10.0.0.1', false],
  ])('%s → %s', (address, expected) => {
    expect(isDeliverableAddress(address, { allowLoopback: true })).toBe(expected);
  });

  it.each(['127.0.0.1', '::1', '::ffff:127.0.0.1'])('refuses loopback %s when the setting is false or absent', (address) => {
    expect(isDeliverableAddress(address, { allowLoopback: false })).toBe(false);
    expect(isDeliverableAddress(address, {})).toBe(false);
  });
});

describe('literalAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['93.184.215.14', '93.184.215.14'],
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[2001:4860:4860::8888]', '2001:4860:4860::8888'],
    ['[127.0.0.1]', '127.0.0.1'],
    ['example.com', undefined],
    ['localhost', undefined],
    ['[example]', undefined],
    ['', undefined],
    ['[]', undefined],
    // Shorthand IPv4 forms are not literal hosts here (the URL parser already rewrites them to dotted quads).
    ['127.1', undefined],
    ['2130706433', undefined],
    ['0x7f000001', undefined],
    ['01.02.03.04', undefined],
    ['1.2.3.4.5', undefined],
  ])('%j → %s', (hostname, expected) => {
    expect(literalAddress(hostname)).toBe(expected);
  });
});
