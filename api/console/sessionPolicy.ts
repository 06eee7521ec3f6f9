import type { SessionPolicy } from '../../src/console/sessions.js';
import type { Config } from '../../src/core/config.js';

export const sessionPolicy = (config: Config): SessionPolicy => ({
  idleMinutes: config.console.sessionIdleMinutes,
  absoluteHours: config.console.sessionAbsoluteHours,
});
