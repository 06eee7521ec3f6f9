import type { REST } from '@discordjs/rest';
import type { FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createBanLatch } from '../../src/platform/discord/banLatch.js';
import { createDiscordRest } from '../../src/platform/discord/discordRest.js';

const clients = new WeakMap<FakeDiscord, REST>();

/**
 * One REST client per fake Discord, as a process has one: several clients against one fake would together pass its
 * global limit (50/s), as several processes without the egress pass Discord's.
 */
export function fakeDiscordRest(fake: FakeDiscord): REST {
  let rest = clients.get(fake);
  if (!rest) {
    rest = createDiscordRest({ token: fake.token, apiUrl: fake.apiUrl, latch: createBanLatch({ clock: systemClock, logger: createLogger('silent', 'test') }) });
    clients.set(fake, rest);
  }
  return rest;
}
