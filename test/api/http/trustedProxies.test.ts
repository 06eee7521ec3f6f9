import { describe, expect, it } from 'vitest';
import { readHits } from '../../../db/shared/rateLimits.js';
import { fixedClock } from '../../../src/core/clock.js';
import { loadConfig } from '../../../src/core/config.js';
import { currentWindow } from '../../../src/core/fixedWindow.js';
import { consoleClient, errorCodeOf, managedGuild } from '../../console/consoleClient.js';
import { useTestDatabase } from '../../harness/database.js';
import { createTestGuild } from '../../harness/fixtures.js';
import { useTestApp } from '../../harness/testApp.js';

// Behind one load balancer, X-Forwarded-For reaches the api as "<whatever the client wrote>, <client's address>":
// the balancer appends the address it saw. Only that rightmost entry is the client's.
const NOW = new Date('2026-11-28T09:00:00.000Z');
const LIMIT = 3;
const database = useTestDatabase();
const clock = fixedClock(NOW);
const env = { CONSOLE_SIGN_IN_LIMIT: String(LIMIT), AUTH_FAILURE_LIMIT: String(LIMIT) };
const oneProxy = useTestApp(() => database.db, { clock, env: { ...env, TRUST_PROXY: 'true' } });
const twoProxies = useTestApp(() => database.db, { clock, env: { ...env, TRUST_PROXY: '2' } });

const ATTACKER = '203.0.113.7';
const VICTIM = '198.51.100.9';
const UNKNOWN_USER = '1999999999999999999';
const signInHits = (address: string) => readHits(database.db, `console-sign-in:${address}`, currentWindow(clock.now()).start);

describe('TRUST_PROXY: the client address is read from the right of X-Forwarded-For', () => {
  it('parses a proxy count, true as 1 and false as 0, and refuses anything else', () => {
    expect(loadConfig({}).http.trustedProxies).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).http.trustedProxies).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).http.trustedProxies).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '2' }).http.trustedProxies).toBe(2);
    for (const bad of ['yes', '-1', '10', '1.5', '']) expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be the number of proxies/);
  });

  it('counts the sign-ins of an attacker who rotates the leftmost entry against their own address, and refuses them past the limit', async () => {
    clock.set(new Date('2026-11-28T09:01:00.000Z'));
    const client = consoleClient(oneProxy.baseUrl);
    const from = (spoofed: string) => ({ headers: { 'X-Forwarded-For': `${spoofed}, ${ATTACKER}` } });
    for (let i = 0; i < LIMIT; i++) expect((await client.post('/console/sign-in/local', { userId: UNKNOWN_USER }, { csrf: null, ...from(`10.0.0.${i}`) })).status).toBe(400);
    const refused = await client.post('/console/sign-in/local', { userId: UNKNOWN_USER }, { csrf: null, ...from('10.0.0.99') });
    expect(refused.status).toBe(429);
    expect(errorCodeOf(refused)).toBe('RATE_LIMITED');
    expect(await signInHits(ATTACKER)).toBe(LIMIT + 1);
    expect(await signInHits('10.0.0.0')).toBe(0);
  });

  it("does not spend a victim's budget when the attacker writes the victim's address leftmost: the victim still signs in", async () => {
    clock.set(new Date('2026-11-28T09:02:00.000Z'));
    const guild = await managedGuild(database.db);
    const attacker = consoleClient(oneProxy.baseUrl);
    for (let i = 0; i < LIMIT + 2; i++) {
      await attacker.post('/console/sign-in/local', { userId: UNKNOWN_USER }, { csrf: null, headers: { 'X-Forwarded-For': `${VICTIM}, ${ATTACKER}` } });
    }
    expect(await signInHits(VICTIM)).toBe(0);
    const victim = consoleClient(oneProxy.baseUrl);
    const signedIn = await victim.post('/console/sign-in/local', { userId: guild.managerId }, { headers: { 'X-Forwarded-For': VICTIM } });
    expect(signedIn.status).toBe(303);
    expect(await signInHits(VICTIM)).toBe(1);
  });

  it('with two proxies, takes the entry the outer one appended (second from the right)', async () => {
    clock.set(new Date('2026-11-28T09:03:00.000Z'));
    const client = consoleClient(twoProxies.baseUrl);
    await client.post('/console/sign-in/local', { userId: UNKNOWN_USER }, { csrf: null, headers: { 'X-Forwarded-For': `${VICTIM}, ${ATTACKER}, 10.1.2.3` } });
    expect(await signInHits(ATTACKER)).toBe(1);
    expect(await signInHits(VICTIM)).toBe(0);
    expect(await signInHits('10.1.2.3')).toBe(0);
  });

  it("applies to the API's failed-authentication limit too: rotating the leftmost entry does not dodge it", async () => {
    clock.set(new Date('2026-11-28T09:04:00.000Z'));
    const guild = await createTestGuild(database.db);
    const get = (spoofed: string) =>
      oneProxy.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: `Bearer svc_${'C'.repeat(43)}`, 'X-Forwarded-For': `${spoofed}, ${ATTACKER}` } });
    for (let i = 0; i < LIMIT; i++) expect((await get(`10.9.0.${i}`)).status).toBe(401);
    const throttled = await get('10.9.0.99');
    expect(throttled.status).toBe(429);
    expect(throttled.body.error).toBe('RATE_LIMITED');
  });
});
