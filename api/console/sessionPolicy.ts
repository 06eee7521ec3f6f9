import type { SessionPolicy } from '../../src/console/sessions.js';
import type { Config } from '../../src/core/config.js';
import type { AppDeps } from '../context.js';

export const sessionPolicy = (config: Config): SessionPolicy => ({
  idleMinutes: config.console.sessionIdleMinutes,
  absoluteHours: config.console.sessionAbsoluteHours,
});

/** What both sign-ins take of the app's dependencies (the manager rule's lookups write the sign-in's audit rows). */
export const signInDeps = (deps: AppDeps) => ({
  db: deps.db,
  clock: deps.clock,
  platform: deps.platform,
  memberCache: deps.memberCache,
  logger: deps.logger,
  policy: sessionPolicy(deps.config),
  signInPerMinute: deps.config.console.signInPerMinute,
});
