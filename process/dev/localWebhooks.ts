import type { Config } from '../../src/core/config.js';

/**
 * The configuration of `npm run dev`, and of the admin CLI on its database: webhook receivers on this machine
 * (`http://127.0.0.1:.../hook`) are allowed without setting anything. An explicit WEBHOOK_ALLOW_INSECURE_LOCAL
 * wins; with NODE_ENV=production they stay refused (and loadConfig refuses `true` there).
 */
export function withLocalWebhooks(config: Config): Config {
  const allowInsecureLocal = config.webhooks.allowInsecureLocalSetting ?? config.env !== 'production';
  return Object.freeze({ ...config, webhooks: Object.freeze({ ...config.webhooks, allowInsecureLocal }) });
}
