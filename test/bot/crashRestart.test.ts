import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listGatewaySessions } from '../../db/bot/gatewaySessions.js';
import { saveLevelSettings } from '../../db/levels/members.js';
import { attachFakeGateway, startFakeDiscord, type FakeDiscord, type FakeGateway } from '../../process/infra/fakeDiscord/index.js';
import { fixedClock } from '../../src/core/clock.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { restartBotBed } from './botHarness.js';
import { holdLevelRow } from './levelRowLock.js';
import { messageLedger } from './messageLedger.js';
import { memberMessage } from './payloads.js';

// `npm run bot` killed with SIGKILL (a crash: no drain, no last save, no close frame): the next process resumes from
// the position the dead one saved last, the handled one, and Discord replays the rest; each message counts once.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let fake: FakeDiscord;
let gateway: FakeGateway;
let a: TestGuild;
let b: TestGuild;

beforeAll(async () => {
  fake = await startFakeDiscord();
  gateway = attachFakeGateway(fake);
  [a, b] = [await createTestGuild(database.db, { features: ['levels'] }), await createTestGuild(database.db, { features: ['levels'] })];
  for (const g of [a, b]) await saveLevelSettings(database.db, g.id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, messageCooldownSeconds: 0 });
});
afterAll(() => fake?.close());

describe('a crash (kill -9)', () => {
  it('is followed by a resume from the last position the dead process saved; what it handled past it counts once', async () => {
    const ready = once(gateway.events, 'ready');
    // Node itself with tsx's loader, as the image runs it: the tsx launcher would leave its child alive on SIGKILL.
    const child = spawn(process.execPath, ['--import', 'tsx', 'process/entrypoints/bot.ts'], {
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent', BOT_PORT: '0', PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl },
      stdio: 'ignore',
    });
    const exited = once(child, 'exit');
    try {
      const [sessionId] = (await ready) as [string];
      const ledger = messageLedger(gateway);
      const [ua, ub] = [snowflake(), snowflake()];
      ledger.send(memberMessage(b.id, ub, NOW));
      await ledger.allCounted(database.db);

      // ub's next message waits on a lock; a's are handled past it.
      const releaseLock = await holdLevelRow(database, b.id, ub);
      const stuck = ledger.send(memberMessage(b.id, ub, NOW));
      for (let i = 0; i < 3; i += 1) ledger.send(memberMessage(a.id, ua, NOW));
      await ledger.allCounted(database.db, 4);
      const saved = await eventually(() => listGatewaySessions(database.db), (rows) => rows[0]?.seq === stuck - 1);
      expect(saved).toEqual([{ shardId: 0, shardCount: 1, sessionId, resumeUrl: gateway.url, seq: stuck - 1 }]);

      child.kill('SIGKILL');
      expect(await exited).toEqual([null, 'SIGKILL']);
      // Its connection ended without a close frame: Discord keeps the session.
      await eventually(async () => gateway.connected(), (connected) => !connected);
      expect(gateway.sessionOf()!.ended).toBeNull();
      await releaseLock();
      // Sent while no bot runs.
      ledger.send(memberMessage(a.id, ua, NOW));
      ledger.send(memberMessage(b.id, ub, NOW));

      const next = await restartBotBed(database, { fake, gateway, clock: fixedClock(NOW) });
      try {
        expect(gateway.resumes).toEqual([{ sessionId, seq: stuck - 1 }]);
        expect(gateway.identifies).toHaveLength(1);
        expect(await ledger.allCounted(database.db)).toEqual({ claims: 7, [`${a.id}/${ua}`]: 4, [`${b.id}/${ub}`]: 3 });
      } finally {
        await next.bot.stop();
      }
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
