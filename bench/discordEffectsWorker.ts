import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { systemClock } from '../src/core/clock.js';
import { PlatformUnavailableError } from '../src/core/platform.js';
import { createDiscordPlatform } from '../src/platform/discord/discordPlatform.js';

/** What the discord-effects scenario passes to each worker process it forks (JSON in argv[2]). */
export interface DiscordEffectsWorkerArgs {
  apiUrl: string;
  token: string;
  roleId: string;
  targets: Array<{ guildId: string; userId: string }>;
  /** Changes under way at once, as a worker's concurrent activities. */
  concurrency: number;
}

/** The one message to the parent, when every change is done. */
export interface DiscordEffectsWorkerDone {
  retries: number;
}

// One worker process's platform steps: its own REST client (as a worker has one), through the egress, each change
// retried with backoff on an outage as Temporal retries an activity.
const args = JSON.parse(process.argv[2]!) as DiscordEffectsWorkerArgs;
const platform = createDiscordPlatform({ token: args.token, apiUrl: args.apiUrl, clock: systemClock, logger: pino({ level: 'silent' }) });
let retries = 0;
const changeOnce = async (t: { guildId: string; userId: string }) => {
  for (let attempt = 0; ; attempt++) {
    try {
      return await platform.changeRole(t.guildId, t.userId, args.roleId, 'add', 'Bench: level reward');
    } catch (err) {
      if (!(err instanceof PlatformUnavailableError)) throw err;
      retries++;
      await sleep(Math.min(1000 * 2 ** attempt, 30_000));
    }
  }
};
const queue = [...args.targets];
await Promise.all(
  Array.from({ length: args.concurrency }, async () => {
    for (let t = queue.shift(); t; t = queue.shift()) await changeOnce(t);
  }),
);
process.send!({ retries } satisfies DiscordEffectsWorkerDone);
process.disconnect();
