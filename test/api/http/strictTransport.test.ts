import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/core/config.js';
import { useTestDatabase } from '../../harness/database.js';
import { createHttpClient } from '../../harness/httpClient.js';
import { useTestApp } from '../../harness/testApp.js';

const database = useTestDatabase();
const behindProxy = useTestApp(() => database.db, { env: { TRUST_PROXY: 'true' } });
const balancerSendsIt = useTestApp(() => database.db, { env: { TRUST_PROXY: 'true', HSTS_MAX_AGE_SECONDS: '0' } });
const noProxy = useTestApp(() => database.db);

const HSTS = 'max-age=31536000; includeSubDomains';
// A console page, a console refusal page, an API refusal (no key) and an unknown path.
const PATHS = ['/console/sign-in', '/console/servers/1/keys/new', '/api/v1/guilds/1200000000000000001', '/nowhere'];
const hstsOf = async (baseUrl: string, path: string, headers: Record<string, string>) => (await createHttpClient(baseUrl)('GET', path, { headers })).headers['strict-transport-security'];

describe('Strict-Transport-Security', () => {
  it.each(PATHS)('is sent on %s when a trusted proxy says the request came over https', async (path) => {
    expect(await hstsOf(behindProxy.baseUrl, path, { 'X-Forwarded-Proto': 'https' })).toBe(HSTS);
  });

  it.each(PATHS)('is not sent on %s over plain http, where browsers ignore it', async (path) => {
    expect(await hstsOf(behindProxy.baseUrl, path, {})).toBeUndefined();
    expect(await hstsOf(behindProxy.baseUrl, path, { 'X-Forwarded-Proto': 'http' })).toBeUndefined();
  });

  it('is not sent when X-Forwarded-Proto comes from a client the api does not trust as a proxy (TRUST_PROXY unset)', async () => {
    expect(await hstsOf(noProxy.baseUrl, '/console/sign-in', { 'X-Forwarded-Proto': 'https' })).toBeUndefined();
  });

  it('is left to the balancer with HSTS_MAX_AGE_SECONDS=0', async () => {
    for (const path of PATHS) expect(await hstsOf(balancerSendsIt.baseUrl, path, { 'X-Forwarded-Proto': 'https' })).toBeUndefined();
  });

  it('takes max-age from HSTS_MAX_AGE_SECONDS (one year by default, 0 to two years)', () => {
    expect(loadConfig({}).http.hstsMaxAgeSeconds).toBe(31_536_000);
    expect(loadConfig({ HSTS_MAX_AGE_SECONDS: '0' }).http.hstsMaxAgeSeconds).toBe(0);
    for (const bad of ['-1', '63072001', 'off']) expect(() => loadConfig({ HSTS_MAX_AGE_SECONDS: bad }), bad).toThrow(/HSTS_MAX_AGE_SECONDS/);
  });
});
