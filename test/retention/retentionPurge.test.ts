import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fixedClock, type Clock } from '../../src/core/clock.js';
import { FIXED_RETENTION_MS, RETENTION_DAYS_BY_PLAN } from '../../src/core/retention.js';
import { purgeRetention, restAfterBatch, type PurgeProgress } from '../../src/keys/retentionPurge.js';
import { PURGE_SLACK_MS } from '../../src/keys/ids.js';
import { PLAN_HORIZON_MS, planNextPass } from '../../src/keys/purgeDispatcher.js';
import { CLOCK_STEPS, firstDueOf, PURGE_STEPS } from '../../src/keys/retentionSteps.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild } from '../harness/fixtures.js';
import {
  insertAuditRow,
  insertEvent,
  insertFlowRun,
  insertFlowRunQuota,
  insertLevelUpEffect,
  insertModAction,
  insertTicket,
  insertXpChange,
} from '../harness/retentionRows.js';

// The retention purge against PostgreSQL, on a fixed clock: each kind purged just past its retention and kept just
// before it, per plan; batches bounded; a run cut by its time budget or cancelled goes on later without touching
// what it keeps.
const database = useTestDatabase();
const db = () => database.db;
const NOW = new Date('2031-03-10T12:00:00.000Z');
const DAY = 86_400_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
/** A server whose own audit rows (its creation, written at the real time) are dated NOW, so only the test's rows expire. */
async function server(plan: 'free' | 'pro' = 'free') {
  const guild = await createTestGuild(db(), { plan });
  await db().updateTable('audit_log').set({ created_at: NOW } as never).where('guild_id', '=', guild.id).execute();
  return guild;
}
const run = (clock: Clock = fixedClock(NOW), options = {}, from?: PurgeProgress) => purgeRetention({ db: db(), clock }, options, from);

describe('each kind past its retention', () => {
  it.each(['free', 'pro'] as const)('on %s: purged 1 ms past the plan retention, kept 1 ms before it and while under way', async (plan) => {
    const guild = await server(plan);
    const days = (kind: keyof typeof RETENTION_DAYS_BY_PLAN) => RETENTION_DAYS_BY_PLAN[kind][plan] * DAY;
    const past = (kind: keyof typeof RETENTION_DAYS_BY_PLAN) => ago(days(kind) + 1);
    const within = (kind: keyof typeof RETENTION_DAYS_BY_PLAN) => ago(days(kind) - 1);
    const rows = {
      events: [await insertEvent(db(), guild.id, past('events'), { delivery: 'succeeded' }), await insertEvent(db(), guild.id, within('events'), { delivery: 'succeeded' })],
      eventsUnderWay: [await insertEvent(db(), guild.id, past('events'), { delivery: 'pending' }), await insertEvent(db(), guild.id, past('events'), { fanout: false })],
      audit: [await insertAuditRow(db(), guild.id, past('auditLog')), await insertAuditRow(db(), guild.id, within('auditLog'))],
      runs: [await insertFlowRun(db(), guild.id, past('flowRuns')), await insertFlowRun(db(), guild.id, within('flowRuns')), await insertFlowRun(db(), guild.id, null)],
      xp: [await insertXpChange(db(), guild.id, past('xpChanges')), await insertXpChange(db(), guild.id, within('xpChanges')), await insertXpChange(db(), guild.id, null)],
      mod: [await insertModAction(db(), guild.id, past('moderationActions')), await insertModAction(db(), guild.id, within('moderationActions')), await insertModAction(db(), guild.id, null)],
      tickets: [await insertTicket(db(), guild.id, past('ticketTranscripts')), await insertTicket(db(), guild.id, within('ticketTranscripts')), await insertTicket(db(), guild.id, null)],
    };

    const result = await run();
    expect(result.complete).toBe(true);

    const ids = async (table: string, key: string) => (await sql<{ id: string | number }>`select ${sql.ref(key)} as id from ${sql.table(table)} where guild_id = ${guild.id}`.execute(db())).rows.map((r) => r.id);
    expect((await ids('events', 'id')).sort()).toEqual([rows.events[1], ...rows.eventsUnderWay].sort());
    const deliveries = await db().selectFrom('webhook_deliveries as d').innerJoin('webhook_attempts as a', 'a.delivery_id', 'd.id').select('d.event_id').where('d.event_id', 'in', [...rows.events, ...rows.eventsUnderWay]).execute();
    expect(deliveries.map((d) => d.event_id).sort()).toEqual([rows.events[1], rows.eventsUnderWay[0]].sort());
    expect(await ids('audit_log', 'id')).not.toContain(rows.audit[0]);
    expect(await ids('audit_log', 'id')).toContain(rows.audit[1]);
    expect((await ids('flow_runs', 'execution_id')).sort()).toEqual([rows.runs[1], rows.runs[2]].sort());
    const effects = await db().selectFrom('flow_effects').select('execution_id').execute();
    expect(effects.map((e) => e.execution_id)).not.toContain(rows.runs[0]);
    expect((await ids('xp_changes', 'change_id')).sort()).toEqual([rows.xp[1], rows.xp[2]].sort());
    expect((await ids('moderation_actions', 'action_id')).sort()).toEqual([rows.mod[1], rows.mod[2]].sort());
    // The tickets stay; the expired one's transcript is gone, the others keep theirs.
    const tickets = await db().selectFrom('tickets').select(['ticket_no', 'transcript_generated_at']).where('guild_id', '=', guild.id).orderBy('ticket_no').execute();
    expect(tickets.map((t) => [t.ticket_no, t.transcript_generated_at !== null])).toEqual([[rows.tickets[0], false], [rows.tickets[1], true], [rows.tickets[2], false]]);
    const messages = await db().selectFrom('ticket_messages').select('ticket_no').where('guild_id', '=', guild.id).execute();
    expect(messages.map((m) => m.ticket_no).sort()).toEqual([rows.tickets[1], rows.tickets[1], rows.tickets[2], rows.tickets[2]]);
    expect(result.purged).toMatchObject({ events: 1, auditLog: 1, flowRuns: 1, xpChanges: 1, moderationActions: 1, ticketTranscripts: 2 });
  });

  it('a Pro server keeps what a Free server loses at the same age', async () => {
    const free = await server('free');
    const pro = await server('pro');
    const age = ago((RETENTION_DAYS_BY_PLAN.auditLog.free + 1) * DAY);
    const lost = await insertAuditRow(db(), free.id, age);
    const kept = await insertAuditRow(db(), pro.id, age);
    await run();
    const left = (await db().selectFrom('audit_log').select('id').where('id', 'in', [lost, kept]).execute()).map((r) => r.id);
    expect(left).toEqual([kept]);
  });

  it('the bookkeeping kinds: applied level-up effects a week old, expired Idempotency-Key records, ended rate-limit windows folded into the key', async () => {
    const guild = await server();
    const old = await insertLevelUpEffect(db(), guild.id, ago(FIXED_RETENTION_MS.levelUpEffects + 1));
    const young = await insertLevelUpEffect(db(), guild.id, ago(FIXED_RETENTION_MS.levelUpEffects - 1));
    const owed = await insertLevelUpEffect(db(), guild.id, null);
    await sql`insert into api_keys (id, guild_id, name, prefix, key_hash, scopes, created_at) overriding system value
      values (990001, ${guild.id}, 'k', 'svc_x', '\\x00', '{}', ${ago(DAY)})`.execute(db()).catch(async () =>
      sql`insert into api_keys (id, guild_id, name, prefix, key_hash, scopes, created_at) values (990001, ${guild.id}, 'k', 'svc_x', '\\x00', '{}', ${ago(DAY)})`.execute(db()));
    for (const [key, expires] of [['gone', ago(1)], ['kept', new Date(NOW.getTime() + 1)]] as const) {
      await sql`insert into idempotency_records (api_key_id, idempotency_key, fingerprint, state, locked_until, created_at, expires_at)
        values (990001, ${key}, '\\x00', 'done', ${ago(DAY)}, ${ago(DAY)}, ${expires})`.execute(db());
    }
    await sql`insert into rate_limit_counters (bucket, window_start, count) values ('key:990001', ${ago(120_000)}, 3), ('key:990001', ${ago(30_000)}, 1)`.execute(db());

    await run();
    const effects = (await db().selectFrom('level_up_effects').select('event_id').where('guild_id', '=', guild.id).execute()).map((r) => r.event_id);
    expect(effects.sort()).toEqual([young, owed].sort());
    expect(effects).not.toContain(old);
    const records = await db().selectFrom('idempotency_records').select('idempotency_key').where('api_key_id', '=', 990001).execute();
    expect(records.map((r) => r.idempotency_key)).toEqual(['kept']);
    const windows = await db().selectFrom('rate_limit_counters').select('window_start').where('bucket', '=', 'key:990001').execute();
    expect(windows.map((w) => w.window_start)).toEqual([ago(30_000)]);
    const key = await db().selectFrom('api_keys').select('last_used_at').where('id', '=', 990001).executeTakeFirstOrThrow();
    expect(key.last_used_at).toEqual(ago(120_000));
  });
});

describe('flow-run quotas', () => {
  it("purges a day's count a day past the end of its UTC day, keeps it until then, and leaves the current day's alone", async () => {
    const guild = await server();
    const other = await server();
    for (const day of ['2031-03-08', '2031-03-09', '2031-03-10']) await insertFlowRunQuota(db(), guild.id, day);
    await insertFlowRunQuota(db(), other.id, '2031-03-09');
    const days = async (guildId: string) =>
      (await sql<{ day: string }>`select day::text as day from flow_run_quotas where guild_id = ${guildId} order by day`.execute(db())).rows.map((r) => r.day);
    // 2031-03-09 ends at 2031-03-10T00:00Z: its count goes once a day more has passed, not a millisecond before.
    const gone = Date.parse('2031-03-10T00:00:00.000Z') + FIXED_RETENTION_MS.flowRunQuotas;

    const before = await run(fixedClock(new Date(gone - 1)));
    expect(before.purged.flowRunQuotas).toBe(1);
    expect(await days(guild.id)).toEqual(['2031-03-09', '2031-03-10']);
    expect(await days(other.id)).toEqual(['2031-03-09']);

    const after = await run(fixedClock(new Date(gone)));
    expect(after.purged.flowRunQuotas).toBe(2);
    expect(await days(guild.id)).toEqual(['2031-03-10']);
    expect(await days(other.id)).toEqual([]);
  });
});

describe('bounded runs', () => {
  const seedExpiredAudit = async (servers: number, each: number) => {
    const guilds = [];
    for (let s = 0; s < servers; s++) {
      const guild = await server('free');
      for (let i = 0; i < each; i++) await insertAuditRow(db(), guild.id, ago(400 * DAY + i));
      guilds.push(guild);
    }
    return guilds;
  };
  // The rows the test wrote (creating a server writes an audit row of its own, at the real time).
  const auditOf = async (guildIds: string[]) =>
    db().selectFrom('audit_log').select('id').where('guild_id', 'in', guildIds).where('action', '=', 'test.action').where('created_at', '<', ago(300 * DAY)).execute();

  it('purges in batches of the given size, and a run past its time budget stops and the next run goes on', async () => {
    const guilds = await seedExpiredAudit(3, 5);
    const ids = guilds.map((g) => g.id);
    const kept = await insertAuditRow(db(), guilds[0]!.id, ago(DAY));
    // Each reading of the clock moves it 1 s: a 40 s budget lasts a few batches.
    let reads = 0;
    const stepping: Clock = { now: () => new Date(NOW.getTime() + reads++ * 1_000) };
    const first = await run(stepping, { batchRows: 2, runBudgetMs: 40_000 });
    expect(first.complete).toBe(false);
    const left = (await auditOf(ids)).length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(15);

    const second = await run(fixedClock(NOW), { batchRows: 2 });
    expect(second).toMatchObject({ complete: true, purged: expect.objectContaining({ auditLog: left }) });
    // Several batches of at most 2 rows: the last one short.
    expect(second.batches).toBeGreaterThanOrEqual(Math.ceil(left / 2) + PURGE_STEPS.length - 1);
    expect(await auditOf(ids)).toEqual([]);
    expect(await db().selectFrom('audit_log').select('id').where('id', '=', kept).execute()).toHaveLength(1);
  });

  it('rests after each batch so that deleting takes its share of the time (as long again at 50 %, not at all at 100 %) and the rows per second stay within the limit', () => {
    const fast = { dutyPercent: 50, rowsPerSecond: 1_000_000 };
    expect(restAfterBatch({ ms: 40, rows: 1000 }, fast)).toBe(40);
    expect(restAfterBatch({ ms: 40, rows: 1000 }, { ...fast, dutyPercent: 25 })).toBe(120);
    expect(restAfterBatch({ ms: 40, rows: 1000 }, { ...fast, dutyPercent: 100 })).toBe(0);
    // 1,000 rows at 5,000 a second: a batch every 200 ms, whatever share of the time that leaves it.
    expect(restAfterBatch({ ms: 40, rows: 1000 }, { dutyPercent: 50, rowsPerSecond: 5_000 })).toBe(160);
    expect(restAfterBatch({ ms: 40, rows: 100 }, { dutyPercent: 100, rowsPerSecond: 5_000 })).toBe(0);
  });

  it('a rest never outlasts the time left to its kind: at 0.01 rows a second the run still ends, and purges what it reached', async () => {
    const guilds = await seedExpiredAudit(1, 6);
    // Uncapped, each rest after a batch of 2 would be 200 s and the test would time out.
    const result = await run(fixedClock(NOW), { batchRows: 2, rowsPerSecond: 0.01, runBudgetMs: 300 });
    expect(result.complete).toBe(true);
    expect(await auditOf(guilds.map((g) => g.id))).toEqual([]);
  });

  it('an attempt goes on from the progress it heartbeated: the servers before its cursor are not read again', async () => {
    const guilds = (await seedExpiredAudit(2, 3)).sort((a, b) => (a.id < b.id ? -1 : 1));
    const step = PURGE_STEPS.findIndex((s) => s.kind === 'auditLog');
    const result = await run(fixedClock(NOW), { batchRows: 10 }, { step, cursor: guilds[1]!.id, purged: { events: 4 }, batches: 7, cut: false });
    expect(result.purged).toMatchObject({ events: 4, auditLog: 3 });
    expect(await auditOf([guilds[0]!.id])).toHaveLength(3);
    expect(await auditOf([guilds[1]!.id])).toEqual([]);
    // A run from the start takes the first server's.
    await run();
    expect(await auditOf([guilds[0]!.id])).toEqual([]);
  });

  it("a batch goes on from the time the one before it reached in its last server; a row written late with an older time waits for the next run", async () => {
    const guild = await server();
    const old = 400 * DAY;
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await insertAuditRow(db(), guild.id, ago(old - i * 60_000)));
    const step = PURGE_STEPS.findIndex((s) => s.kind === 'auditLog');
    const cursors: string[] = [];
    const controller = new AbortController();
    const cut = purgeRetention({ db: db(), clock: fixedClock(NOW), signal: controller.signal, onProgress: (p) => {
      if (p.step === step && p.cursor !== '') cursors.push(p.cursor);
      if (cursors.length > 0) controller.abort(new Error('cut'));
    } }, { batchRows: 3 }, { step, cursor: guild.id, purged: {}, batches: 0, cut: false });
    await expect(cut).rejects.toThrow('cut');
    expect(cursors).toEqual([`${guild.id}|${ago(old - 2 * 60_000).toISOString()}`]);
    const late = await insertAuditRow(db(), guild.id, ago(old + DAY));
    await run(fixedClock(NOW), { batchRows: 3 }, { step, cursor: cursors[0]!, purged: {}, batches: 0, cut: false });
    expect((await auditOf([guild.id])).map((r) => r.id)).toEqual([late]);
    await run();
    expect(await auditOf([guild.id])).toEqual([]);
  });

  it('a cancelled run stops after its batch, keeps every unexpired row, and the next run purges the rest', async () => {
    const guilds = await seedExpiredAudit(2, 4);
    const kept = await Promise.all(guilds.map((g) => insertAuditRow(db(), g.id, ago(DAY))));
    const controller = new AbortController();
    const heartbeats: PurgeProgress[] = [];
    const cancelled = purgeRetention(
      {
        db: db(),
        clock: fixedClock(NOW),
        signal: controller.signal,
        onProgress: (p) => {
          heartbeats.push(p);
          if (PURGE_STEPS[p.step]?.kind === 'auditLog' && p.cursor !== '') controller.abort(new Error('activity cancelled'));
        },
      },
      { batchRows: 3 },
    );
    await expect(cancelled).rejects.toThrow('activity cancelled');
    const afterCancel = (await auditOf(guilds.map((g) => g.id))).length;
    expect(afterCancel).toBe(8 - 3);

    const resumed = await run(fixedClock(NOW), { batchRows: 3 }, heartbeats.at(-1));
    expect(resumed.complete).toBe(true);
    expect(await auditOf(guilds.map((g) => g.id))).toEqual([]);
    expect((await db().selectFrom('audit_log').select('id').where('id', 'in', kept).execute()).length).toBe(2);
  });
});

describe('when the next pass is due', () => {
  it("each kind's first stored record's due time (per its server's plan, settled records only); the next pass an hour after the first, at most the shortest plan retention away", async () => {
    await sql`truncate idempotency_records, rate_limit_counters, console_sessions, console_sign_ins, level_counted_messages, handled_interactions,
      level_up_effects, webhook_attempts, webhook_deliveries, events, audit_log, flow_effects, flow_runs, xp_changes, moderation_actions,
      ticket_messages, tickets, flow_run_quotas cascade`.execute(db());
    const clock = fixedClock(NOW);
    const dueOf = async (kind: string) => PURGE_STEPS.find((s) => s.kind === kind)!.firstDue(db());
    const after = (ms: number) => new Date(NOW.getTime() + ms);
    // Nothing stored: a record written now comes due a Free retention from now at the soonest.
    expect(await firstDueOf(db(), PURGE_STEPS)).toBeNull();
    expect(await planNextPass({ db: db(), clock }, true)).toBe(PLAN_HORIZON_MS);
    expect((await db().selectFrom('retention_purge_plan').selectAll().executeTakeFirstOrThrow()).planned_at).toEqual(after(PLAN_HORIZON_MS));

    const free = await server('free');
    const pro = await server('pro');
    await insertXpChange(db(), free.id, ago(10 * DAY));
    await insertXpChange(db(), pro.id, ago(80 * DAY));
    await insertXpChange(db(), free.id, null);
    await insertTicket(db(), free.id, ago(5 * DAY));
    await insertLevelUpEffect(db(), free.id, ago(DAY));
    await insertLevelUpEffect(db(), free.id, null);
    await insertFlowRunQuota(db(), free.id, '2031-03-10');
    expect(await dueOf('xpChanges')).toEqual(after(10 * DAY));
    expect(await dueOf('ticketTranscripts')).toEqual(after(85 * DAY));
    expect(await dueOf('auditLog')).toEqual(after(90 * DAY));
    expect(await dueOf('levelUpEffects')).toEqual(after(6 * DAY));
    expect(await dueOf('flowRunQuotas')).toEqual(new Date('2031-03-12T00:00:00.000Z'));
    expect(await dueOf('events')).toBeNull();
    expect(await planNextPass({ db: db(), clock }, true)).toBe(DAY + 12 * 3_600_000 + PURGE_SLACK_MS);

    // A rate-limit window of this minute: due as it ends; the relay's kinds see it too.
    await sql`insert into rate_limit_counters (bucket, window_start, count) values ('key:1', ${NOW}, 1)`.execute(db());
    expect(await firstDueOf(db(), CLOCK_STEPS)).toEqual(after(60_000));
    expect(await planNextPass({ db: db(), clock }, true)).toBe(60_000 + PURGE_SLACK_MS);
    // A pass cut short by its budget: again in an hour, as the schedule did.
    expect(await planNextPass({ db: db(), clock }, false)).toBe(PURGE_SLACK_MS);
    // Overdue records (a pass that found more due than its budget): an hour from now, never at once again.
    await insertXpChange(db(), free.id, ago(40 * DAY));
    expect(await planNextPass({ db: db(), clock }, true)).toBe(PURGE_SLACK_MS);
  });
});
