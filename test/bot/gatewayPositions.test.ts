import { describe, expect, it } from 'vitest';
import { listGatewaySessions, saveGatewaySession, type GatewaySessionRecord } from '../../db/bot/gatewaySessions.js';
import { gatewayPositions, type GatewayPositionsOptions } from '../../process/bot/gatewayPositions.js';
import { useTestDatabase } from '../harness/database.js';

// The position a restart resumes from is the last dispatch handled, not received: servers are handled side by side,
// so it is the highest sequence below which every dispatch is done with, saved in PostgreSQL.

const database = useTestDatabase();
const session = (sessionId: string, sequence: number) => ({ shardId: 0, shardCount: 1, sessionId, resumeURL: 'ws://gateway', sequence });

function positionsOf(saved: GatewaySessionRecord[] = [], lost: Array<Parameters<GatewayPositionsOptions['onLost']>[0]> = []) {
  return gatewayPositions({
    saved,
    save: (record) => saveGatewaySession(database.db, record),
    onLost: (l) => lost.push(l),
    onSaveFailed: (err) => {
      throw err;
    },
  });
}

describe('gateway positions', () => {
  it('save the highest sequence below which every dispatch is handled, whatever order the lanes finish in', async () => {
    await database.db.deleteFrom('bot_gateway_sessions').execute();
    const positions = positionsOf();
    positions.update(0, session('s1', 1));
    // READY (1) with two servers to reconcile, then dispatches 2 to 5.
    const p = positions.take(0, 'READY', 1, 3)!;
    for (const s of [2, 3, 4, 5]) positions.take(0, 'MESSAGE_CREATE', s, 1);
    positions.done(p, 1);
    positions.done(p, 1);
    positions.done(p, 3);
    positions.done(p, 5);
    await positions.flush();
    // READY counts once its reconciliations are: nothing of the new session is saved yet.
    expect(await listGatewaySessions(database.db)).toEqual([]);

    positions.done(p, 1);
    await positions.flush();
    expect(await listGatewaySessions(database.db)).toEqual([{ shardId: 0, shardCount: 1, sessionId: 's1', resumeUrl: 'ws://gateway', seq: 1 }]);

    positions.done(p, 2);
    await positions.flush();
    expect((await listGatewaySessions(database.db))[0]!.seq).toBe(3);
    positions.done(p, 4);
    await positions.flush();
    expect((await listGatewaySessions(database.db))[0]!.seq).toBe(5);
  });

  it('start from the saved session, hand it to the library, and report a session Discord ends, not one the bot closes', async () => {
    const lost: Array<Parameters<GatewayPositionsOptions['onLost']>[0]> = [];
    const positions = positionsOf([{ shardId: 0, shardCount: 1, sessionId: 's1', resumeUrl: 'ws://gateway', seq: 5 }], lost);
    expect(positions.retrieve(0)).toEqual(session('s1', 5));
    const p = positions.take(0, 'MESSAGE_CREATE', 6, 1)!;
    positions.take(0, 'MESSAGE_CREATE', 7, 1);
    positions.done(p, 6);
    // The library's position is the one received (8); the one handled is 6.
    positions.update(0, session('s1', 8));
    positions.update(0, null);
    expect(lost).toEqual([{ shardId: 0, sessionId: 's1', handled: 6, received: 8 }]);
    expect(positions.retrieve(0)).toBeNull();

    positions.update(0, session('s2', 1));
    positions.closing();
    positions.update(0, null);
    expect(lost).toHaveLength(1);
  });
});
