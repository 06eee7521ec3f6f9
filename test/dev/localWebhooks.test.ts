import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { devBanner } from '../../process/dev/banner.js';
import { withLocalWebhooks } from '../../process/dev/localWebhooks.js';
import { PRODUCTION_ENV } from '../harness/productionEnv.js';

describe('WEBHOOK_ALLOW_INSECURE_LOCAL in the config', () => {
  it('is refused with NODE_ENV=production, with a message that says why', () => {
    expect(() => loadConfig({ ...PRODUCTION_ENV, WEBHOOK_ALLOW_INSECURE_LOCAL: 'true' })).toThrow(
      'Invalid configuration:\n  WEBHOOK_ALLOW_INSECURE_LOCAL: must not be true with NODE_ENV=production: production webhook endpoints are public https:// URLs',
    );
    expect(() => loadConfig({ ...PRODUCTION_ENV, WEBHOOK_ALLOW_INSECURE_LOCAL: '1' })).toThrow(/WEBHOOK_ALLOW_INSECURE_LOCAL: must not be true/);
  });

  it.each([
    [PRODUCTION_ENV, false, undefined],
    [{ ...PRODUCTION_ENV, WEBHOOK_ALLOW_INSECURE_LOCAL: 'false' }, false, false],
    [{ NODE_ENV: 'development' }, false, undefined],
    [{ NODE_ENV: 'development', WEBHOOK_ALLOW_INSECURE_LOCAL: 'true' }, true, true],
    [{ NODE_ENV: 'test', WEBHOOK_ALLOW_INSECURE_LOCAL: '0' }, false, false],
  ])('%j parses to allowInsecureLocal %s (setting %s)', (env, allowed, setting) => {
    expect(loadConfig(env).webhooks).toEqual({ allowInsecureLocal: allowed, allowInsecureLocalSetting: setting });
  });

  it('still refuses a value that is not a flag', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOW_INSECURE_LOCAL: 'yes' })).toThrow(/WEBHOOK_ALLOW_INSECURE_LOCAL/);
  });
});

describe('withLocalWebhooks (npm run dev, and the admin CLI on the dev database)', () => {
  it.each([
    [{}, true],
    [{ NODE_ENV: 'test' }, true],
    [{ WEBHOOK_ALLOW_INSECURE_LOCAL: 'false' }, false],
    [{ WEBHOOK_ALLOW_INSECURE_LOCAL: 'true' }, true],
    [PRODUCTION_ENV, false],
  ])('%j allows local receivers: %s', (env, allowed) => {
    const config = withLocalWebhooks(loadConfig(env));
    expect(config.webhooks.allowInsecureLocal).toBe(allowed);
    expect(Object.isFrozen(config.webhooks)).toBe(true);
  });
});

describe('the dev banner', () => {
  const base = {
    baseUrl: 'http://127.0.0.1:3000/api/v1',
    temporalUiUrl: 'http://127.0.0.1:8233',
    temporalAddress: '127.0.0.1:7233',
    guildId: '1100000000000000001',
    apiKey: 'svc_key',
    console: { url: 'http://127.0.0.1:3000/console', localManager: { userId: '1100000000000000002', name: 'demo-owner' } },
  };

  it('says that local webhook receivers are allowed, and shows how to register one and simulate bot activity', () => {
    const banner = devBanner({ ...base, localWebhooks: true });
    expect(banner).toContain('    Webhooks     local receivers allowed (http://127.0.0.1:PORT/...; WEBHOOK_ALLOW_INSECURE_LOCAL=false refuses them)');
    expect(banner).toContain('npm run admin -- webhook add --guild 1100000000000000001 --url http://127.0.0.1:8080/hook --events all');
    expect(banner).toContain('npm run admin -- simulate --help');
    expect(banner).toContain('    Temporal UI  http://127.0.0.1:8233');
    expect(banner).toContain('curl -H "Authorization: Bearer svc_key" http://127.0.0.1:3000/api/v1/guilds/1100000000000000001');
    expect(banner).toContain("    Console      http://127.0.0.1:3000/console   (sign in as demo-owner, 1100000000000000002: the demo guild's owner)");
  });

  it('says so when they are refused, and names an external Temporal', () => {
    const banner = devBanner({ ...base, temporalUiUrl: null, localWebhooks: false });
    expect(banner).toContain('    Webhooks     public https:// URLs only (WEBHOOK_ALLOW_INSECURE_LOCAL=false or NODE_ENV=production)');
    expect(banner).not.toContain('--url http://127.0.0.1');
    expect(banner).toContain('    Temporal UI  (external Temporal at 127.0.0.1:7233)');
  });
});
