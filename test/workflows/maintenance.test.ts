import { describe, expect, it } from 'vitest';
import { tryClaimIdempotencyKey } from '../../db/shared/idempotency.js';
import { countHit } from '../../db/shared/rateLimits.js';
import { ensureSchedules } from '../../src/core/temporal/schedules.js';
import { PURGE_SCHEDULE_ID } from '../../src/keys/schedules.js';
import { AREAS } from '../../process/areas.js';
import { collectSchedules } from '../../process/registry.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { eventually } from '../harness/eventually.js';

const { database, gateway } = useWorkflowTestBed();

const HOUR = 3600_000;

describe('purge schedule', () => {
  it('is created once and purges expired idempotency records and ended rate-limit windows', async () => {
    const now = Date.now();
    const at = (offset: number) => new Date(now + offset);
    await tryClaimIdempotencyKey(database.db, { apiKeyId: 1, key: 'expired', fingerprint: Buffer.alloc(32) }, {
      now: at(-25 * HOUR),
      lockedUntil: at(-25 * HOUR),
      expiresAt: at(-HOUR),
    });
    await tryClaimIdempotencyKey(database.db, { apiKeyId: 1, key: 'fresh', fingerprint: Buffer.alloc(32) }, {
      now: at(0),
      lockedUntil: at(60_000),
      expiresAt: at(24 * HOUR),
    });
    await countHit(database.db, 'key:1', at(-10 * 60_000));

    const schedules = collectSchedules(AREAS);
    await ensureSchedules(gateway, schedules);
    await ensureSchedules(gateway, schedules);
    const schedule = gateway.client.schedule.getHandle(PURGE_SCHEDULE_ID);
    try {
      const description = await schedule.describe();
      expect(description.spec.intervals?.[0]?.every).toBe(HOUR);
      await schedule.trigger();
      const keys = await eventually(
        () => database.db.selectFrom('idempotency_records').select('idempotency_key').execute(),
        (rows) => rows.length === 1,
      );
      expect(keys.map((k) => k.idempotency_key)).toEqual(['fresh']);
      const windows = await database.db.selectFrom('rate_limit_counters').selectAll().execute();
      expect(windows).toEqual([]);
      // The purge is the one schedule left: the rank recounts run when a server changed (rankRecounts.test.ts).
      expect(schedules.map((s) => s.id)).toEqual([PURGE_SCHEDULE_ID]);
    } finally {
      // Every schedule it created, or the giveaway ends' one fires every second for the rest of the run.
      for (const { id } of schedules) await gateway.client.schedule.getHandle(id).delete();
    }
  });
});
