import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import { withDatabase } from '../../process/infra/embeddedPostgres.js';
import { fixedClock, systemClock } from '../../src/core/clock.js';
import { giveawayWorkflowId } from '../../src/giveaways/ids.js';
import { xpChangeWorkflowId } from '../../src/levels/ids.js';
import { RECORD_ANSWERS_FOR_MS } from '../../src/levels/readXpChange.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { giveawayRequests } from '../api/giveaways/giveawayBed.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey, type TestGuild } from '../harness/fixtures.js';
import { postgresClientTools } from '../harness/postgresClientTools.js';
import { startStoppableWorker } from '../harness/temporal.js';
import { startTestApp } from '../harness/testApp.js';

// docs/backup-restore.md, exercised once: a pg_dump of the app's database, more changes after it (one XP change
// whose run has started and not yet run, another accepted before the dump and finished after it), pg_restore into
// a new database, a worker and an api pointed at it. The run of the lost change ends with XP_CHANGE_NOT_FOUND;
// the change finished after the dump reads done from its run while its XP is gone; the restored service works on.

const run = promisify(execFile);
const { database, gateway, app } = useApiTestBed({ temporal: true });

const admin = async (sql: string) => {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
};

const restoredDatabases: { name: string; handle: DatabaseHandle }[] = [];
let folder: string | undefined;
afterAll(async () => {
  for (const { name, handle } of restoredDatabases) {
    await handle.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The runbook's backup: a custom-format dump of the test file's database. */
async function dumpDatabase(): Promise<{ dump: string; pgRestore: string }> {
  const serverMajor = Math.floor(Number((await admin('SHOW server_version_num')).rows[0].server_version_num) / 10_000);
  const { pgDump, pgRestore } = await postgresClientTools(serverMajor);
  folder ??= await mkdtemp(join(tmpdir(), 'backup-restore-'));
  const dump = join(folder, `${randomBytes(4).toString('hex')}.dump`);
  await run(pgDump, ['--format=custom', `--file=${dump}`, database.url]);
  return { dump, pgRestore };
}

/** The runbook's restore: a new database from the dump. */
async function restoreDatabase({ dump, pgRestore }: { dump: string; pgRestore: string }): Promise<DatabaseHandle> {
  const name = `restored_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name} TEMPLATE template0`);
  const url = withDatabase(inject('databaseUrl'), name);
  await run(pgRestore, ['--exit-on-error', '--no-owner', `--dbname=${url}`, dump]);
  const handle = createDatabase(url, 5);
  restoredDatabases.push({ name, handle });
  return handle;
}

const xpChange = (http: typeof app.http, guild: TestGuild, key: string, userId: string, amount: number) =>
  http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, { headers: bearer(key), body: { type: 'add', amount } });
const read = (http: typeof app.http, guild: TestGuild, key: string, path: string) => http('GET', `/guilds/${guild.id}${path}`, { headers: bearer(key) });
/** Waits until the api reads the change as done: its run finished. */
const finished = (http: typeof app.http, guild: TestGuild, key: string, changeId: string) =>
  eventually(() => read(http, guild, key, `/levels/xp-changes/${changeId}`), (r) => r.body.status === 'done');

it('a restore to a dump loses what came after it: the run of a lost XP change ends XP_CHANGE_NOT_FOUND and the service works on', { timeout: 180_000 }, async () => {
  const guild = await createTestGuild(database.db, { features: ['levels'] });
  const { key } = await createTestKey(database.db, guild, { scopes: ['levels:read', 'levels:write'] });
  const userId = await addTestMember(database.db, guild);

  // Before the dump: one change done, one accepted whose run no worker has taken yet.
  const worker = await startStoppableWorker(database.db, gateway, createLocalPlatform(database.db));
  const done = await xpChange(app.http, guild, key, userId, 50);
  await finished(app.http, guild, key, done.body.changeId);
  await worker.stop();
  const finishedAfter = await xpChange(app.http, guild, key, userId, 20);

  const backup = await dumpDatabase();

  // After the dump: the earlier change finished, then a new one whose run has started (no worker takes it yet).
  const second = await startStoppableWorker(database.db, gateway, createLocalPlatform(database.db));
  await finished(app.http, guild, key, finishedAfter.body.changeId);
  await second.stop();
  const lost = await xpChange(app.http, guild, key, userId, 100);
  expect(lost.status).toBe(202);
  const lostRun = gateway.client.workflow.getHandle(xpChangeWorkflowId(guild.id, lost.body.changeId));
  // The api starts the run once its answer is sent.
  const status = () => lostRun.describe().then((d) => d.status.name, () => 'NOT_STARTED');
  expect(await eventually(status, (s) => s !== 'NOT_STARTED')).toBe('RUNNING');
  expect((await read(app.http, guild, key, `/levels/members/${userId}`)).body).toMatchObject({ xp: 70 });

  // The restore, into a new database, and the fleet pointed at it.
  const restored = await restoreDatabase(backup);
  // The restored service answers later than a change's first seconds, when a poll reads the run and not the record
  // alone (src/levels/readXpChange.ts): its clock is set past that window for every change made above.
  const later = fixedClock(new Date(systemClock.now().getTime() + RECORD_ANSWERS_FOR_MS + 1_000));
  const restoredApp = await startTestApp(restored.db, { clock: later, deps: { temporal: gateway } });
  const restoredWorker = await startStoppableWorker(restored.db, gateway, createLocalPlatform(restored.db));
  try {
    expect(await lostRun.result()).toEqual({ status: 'failed', error: 'XP_CHANGE_NOT_FOUND' });
    // A refusal, not an error: never retried, so the run completes rather than retrying the lookup for ever.
    expect((await lostRun.describe()).status.name).toBe('COMPLETED');

    expect((await read(restoredApp.http, guild, key, `/levels/xp-changes/${lost.body.changeId}`)).status).toBe(404);
    expect((await read(restoredApp.http, guild, key, `/levels/xp-changes/${done.body.changeId}`)).body).toMatchObject({ status: 'done' });
    // Recorded before the dump, applied after it: the row is back to before its run, which says done.
    expect((await read(restoredApp.http, guild, key, `/levels/xp-changes/${finishedAfter.body.changeId}`)).body).toMatchObject({
      status: 'done',
      result: { xp: 70 },
    });
    expect((await read(restoredApp.http, guild, key, `/levels/members/${userId}`)).body).toMatchObject({ xp: 50 });

    // The restored service takes new work as before.
    const next = await xpChange(restoredApp.http, guild, key, userId, 5);
    expect(next.status).toBe(202);
    await finished(restoredApp.http, guild, key, next.body.changeId);
    expect((await read(restoredApp.http, guild, key, `/levels/members/${userId}`)).body).toMatchObject({ xp: 55 });
  } finally {
    await restoredWorker.stop();
    await restoredApp.close();
  }
});

// docs/backup-restore.md, step 3: giveaways are numbered per server, so the first giveaway after a restore takes the
// number of one the restore lost, and its workflow id. The lost giveaway's run (waiting for its start) would stand
// for the new one; deleted, as the runbook says, it frees the id and the new giveaway gets a run of its own.
it("a number given again after the restore finds the lost record's run, unless the runs after the restore point are deleted", { timeout: 180_000 }, async () => {
  const giveaways = giveawayRequests(() => database.db, app, systemClock);
  const [kept, deleted] = [await giveaways.setup(), await giveaways.setup()];
  const backup = await dumpDatabase();

  // After the dump: giveaway 1 of each server, starting in an hour (its run waits on a timer, no worker needed).
  const inAnHour = () => new Date(systemClock.now().getTime() + 3_600_000).toISOString();
  const lostRuns = [];
  for (const g of [kept, deleted]) {
    const res = await giveaways.start(g, { prize: 'lost', startsAt: inAnHour(), durationSeconds: 3600 });
    expect(res.body.id).toBe(1);
    const handle = gateway.client.workflow.getHandle(giveawayWorkflowId(g.id, 1));
    lostRuns.push(await eventually(() => handle.describe().catch(() => undefined), (d) => d?.status.name === 'RUNNING'));
  }

  const restored = await restoreDatabase(backup);
  const { workflowService } = gateway.client;
  await workflowService.deleteWorkflowExecution({ namespace: inject('temporalNamespace'), workflowExecution: { workflowId: giveawayWorkflowId(deleted.id, 1) } });
  const deletedRun = gateway.client.workflow.getHandle(giveawayWorkflowId(deleted.id, 1));
  expect(await eventually(() => deletedRun.describe().then(() => 'still there', () => 'deleted'), (s) => s === 'deleted')).toBe('deleted');

  // The restored service answers later than a change's first seconds, when a poll reads the run and not the record
  // alone (src/levels/readXpChange.ts): its clock is set past that window for every change made above.
  const later = fixedClock(new Date(systemClock.now().getTime() + RECORD_ANSWERS_FOR_MS + 1_000));
  const restoredApp = await startTestApp(restored.db, { clock: later, deps: { temporal: gateway } });
  try {
    const again = giveawayRequests(() => restored.db, restoredApp, systemClock);
    const runs = [];
    for (const g of [kept, deleted]) {
      const res = await again.start(g, { prize: 'new', startsAt: inAnHour(), durationSeconds: 3600 });
      expect(res.body).toMatchObject({ id: 1, prize: 'new' });
      const handle = gateway.client.workflow.getHandle(giveawayWorkflowId(g.id, 1));
      runs.push(await eventually(() => handle.describe().catch(() => undefined), (d) => d?.status.name === 'RUNNING'));
    }
    expect(runs[0]!.runId).toBe(lostRuns[0]!.runId);
    expect(runs[1]!.runId).not.toBe(lostRuns[1]!.runId);
  } finally {
    await restoredApp.close();
    for (const g of [kept, deleted]) await gateway.client.workflow.getHandle(giveawayWorkflowId(g.id, 1)).terminate('test over');
  }
});
