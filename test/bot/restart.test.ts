import { Writable } from 'node:stream';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { listGatewaySessions } from '../../db/bot/gatewaySessions.js';
import { saveLevelSettings } from '../../db/levels/members.js';
import { findPlatformMember } from '../../db/platform/local.js';
import { gatewaySessionsLost } from '../../process/bot/botMetrics.js';
import { useTestDatabase } from '../harness/database.js';
import { createDiscordGuild } from '../harness/discordGuild.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { eventually } from '../harness/eventually.js';
import { restartBotBed, startBotBed } from './botHarness.js';
import { holdLevelRow } from './levelRowLock.js';
import { messageLedger } from './messageLedger.js';
import { memberMessage } from './payloads.js';

// A restart (SIGTERM: the bot's stop()) resumes the gateway session from the last dispatch *handled*, saved in
// PostgreSQL, so Discord replays what the old process had received and not handled, what arrived while it stopped
// and what was sent while no bot ran; each message counts once. A resume Discord refuses is the one case that
// loses events: members are reconciled, and the gap is logged and counted.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let a: TestGuild;
let b: TestGuild;

beforeAll(async () => {
  [a, b] = [await createTestGuild(database.db, { features: ['levels'] }), await createTestGuild(database.db, { features: ['levels'] })];
  // No cooldown: every message earns, so the counts show each message once.
  for (const g of [a, b]) await saveLevelSettings(database.db, g.id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, messageCooldownSeconds: 0 });
});

describe('a restart (SIGTERM)', () => {
  it('resumes from the last handled dispatch: what was received and not handled, sent while stopping and while away is replayed and counted once', async () => {
    const first = await startBotBed(database, NOW, {}, { drainMs: 200 });
    const ledger = messageLedger(first.gateway);
    const [ua, ub] = [snowflake(), snowflake()];
    await ledger.handled(first, memberMessage(b.id, ub, NOW));

    // ub's next message waits on a lock; a's are handled beside it, past it.
    const releaseLock = await holdLevelRow(database, b.id, ub);
    const stuck = ledger.send(memberMessage(b.id, ub, NOW));
    for (let i = 0; i < 3; i += 1) expect(await ledger.handled(first, memberMessage(a.id, ua, NOW))).toBeGreaterThan(stuck);

    const handledWhileStopping: number[] = [];
    first.bot.events.on('handled', (_t: string, s: number) => handledWhileStopping.push(s));
    const stopped = first.bot.stop();
    // Arrive while it stops: not taken (the drain handles only what was queued), after the saved position.
    const duringStop = [ledger.send(memberMessage(a.id, ua, NOW)), ledger.send(memberMessage(b.id, ub, NOW))];
    await stopped;
    expect(handledWhileStopping.filter((s) => duringStop.includes(s))).toEqual([]);
    const sessionId = first.gateway.sessionOf()!.id;
    expect(await listGatewaySessions(database.db)).toEqual([{ shardId: 0, shardCount: 1, sessionId, resumeUrl: first.gateway.url, seq: stuck - 1 }]);
    // Closed with a resumable code: Discord keeps the session.
    expect(first.gateway.sessionOf()!.ended).toBeNull();
    await releaseLock();

    // Sent while no bot runs.
    ledger.send(memberMessage(a.id, ua, NOW));
    ledger.send(memberMessage(b.id, ub, NOW));
    const second = await restartBotBed(database, first);
    try {
      // Replayed from the handled position: a's messages handled before the stop come again, and count once.
      expect(second.gateway.resumes).toEqual([{ sessionId, seq: stuck - 1 }]);
      expect(second.gateway.identifies).toHaveLength(1);
      expect(await ledger.allCounted(database.db)).toEqual({ claims: 9, [`${a.id}/${ua}`]: 5, [`${b.id}/${ub}`]: 4 });
    } finally {
      await second.close();
    }
  });
});

describe('a resume Discord refuses', () => {
  it('reconciles the members, logs and counts the gap, and loses only what the old session had not delivered or the bot had not handled', async () => {
    let now = 0;
    const first = await startBotBed(database, NOW, { now: () => now, resumeWindowMs: 60_000 });
    const guild = await createDiscordGuild(database.db, first.fake, { features: ['members', 'levels'] });
    const ledger = messageLedger(first.gateway);
    const user = snowflake();
    await ledger.handled(first, memberMessage(a.id, user, NOW));
    await first.bot.stop();
    const saved = (await listGatewaySessions(database.db))[0]!;

    // While away: a member joins, a message is written; then the resume window passes.
    const joined = guild.addMember();
    const lost = ledger.send(memberMessage(a.id, user, NOW));
    now += 60_001;

    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _enc, next) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), next()) }));
    const lostBefore = (await gatewaySessionsLost.get()).values[0]?.value ?? 0;
    const refused = new Promise((resolve) => first.gateway.events.once('invalid-session', (...args: unknown[]) => resolve(args)));
    const second = await restartBotBed(database, first, {}, { logger });
    try {
      expect(await refused).toEqual([saved.sessionId, 'resume window passed']);
      expect(first.gateway.identifies).toHaveLength(2);
      // The new session's reconciliation records the member who joined while away.
      expect(await eventually(() => findPlatformMember(database.db, guild.id, joined), Boolean)).toBeDefined();
      expect((await gatewaySessionsLost.get()).values[0]!.value).toBe(lostBefore + 1);
      expect(lines.filter((l) => String(l.msg).startsWith('gateway session lost'))).toEqual([
        expect.objectContaining({ shardId: 0, sessionId: saved.sessionId, handledSeq: saved.seq, receivedSeq: saved.seq }),
      ]);
      // The message written while away was in the refused session: the one kind of loss the README names.
      expect(lost).toBeGreaterThan(saved.seq);
      expect(await database.db.selectFrom('level_counted_messages').select('message_id').where('message_id', 'in', ledger.ids()).execute()).toHaveLength(1);
      // The new session is saved once its READY and its reconciliations are handled.
      await second.bot.stop();
      expect((await listGatewaySessions(database.db))[0]!.sessionId).toBe(first.gateway.sessionOf()!.id);
    } finally {
      await second.close();
    }
  });
});
