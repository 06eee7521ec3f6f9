import { createDatabase } from '../db/pool.js';
import { systemClock } from '../src/core/clock.js';
import { purgeRetention } from '../src/keys/retentionPurge.js';
import type { RetentionPurgeOptions, RetentionPurgeResult } from '../src/keys/ids.js';

/** What the purge scenario sends the process it forks, once: the database and the purge's options. */
export type PurgeCommand = { databaseUrl: string; options: RetentionPurgeOptions };

// The retention purge of `purge` in a process of its own with a pool of its own, as the worker's activity runs it in
// production: its JavaScript stays off the load generator's event loop, which times the reads it is compared with.
// Loaded before it is asked to start, so its start-up does not land in the reads it is compared with.
process.send!('ready');
process.once('message', (command: PurgeCommand) => {
  const database = createDatabase(command.databaseUrl, 2);
  void purgeRetention({ db: database.db, clock: systemClock }, command.options)
    .then((result: RetentionPurgeResult) => process.send!(result))
    .finally(async () => {
      await database.close();
      process.disconnect();
    });
});
