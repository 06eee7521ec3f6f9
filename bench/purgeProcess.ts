import { createDatabase, type DatabaseHandle } from '../db/pool.js';
import { systemClock } from '../src/core/clock.js';
import type { RecordKind } from '../src/core/retention.js';
import { purgeRetention } from '../src/keys/retentionPurge.js';
import type { RetentionPurgeOptions, RetentionPurgeResult } from '../src/keys/ids.js';
import { PURGE_STEPS } from '../src/keys/retentionSteps.js';

/**
 * What the purge scenario sends the process it forks, once per slice: the database, the purge's options (a slice
 * lasts its `runBudgetMs`) and the one kind it purges, so the whole budget goes to that kind's backlog.
 */
export type PurgeCommand = { databaseUrl: string; kind: RecordKind; options: RetentionPurgeOptions };

// The retention purge of `purge` in a process of its own with a pool of its own, as the worker's activity runs it in
// production: its JavaScript stays off the load generator's event loop, which times the reads it is compared with.
// Loaded before it is asked to start, so its start-up does not land in the reads it is compared with; it runs one
// slice per command, each going on from where the last one stopped (what is purged is gone), until disconnected.
let database: DatabaseHandle | undefined;
process.send!('ready');
process.on('message', (command: PurgeCommand) => {
  database ??= createDatabase(command.databaseUrl, 2);
  const steps = PURGE_STEPS.filter((step) => step.kind === command.kind);
  void purgeRetention({ db: database.db, clock: systemClock, steps }, command.options).then((result: RetentionPurgeResult) => process.send!(result));
});
process.once('disconnect', () => void database?.close());
