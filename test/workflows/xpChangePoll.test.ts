import { describe, expect, it } from 'vitest';
import { RECORD_ANSWERS_FOR_MS } from '../../src/levels/readXpChange.js';
import { xpChangeWorkflowId } from '../../src/levels/ids.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';

// No worker: the change's run stays open with the memo it started with until the test ends it, as an operator would.
const { database, gateway, app, clock } = useApiTestBed({ temporal: true, now: new Date('2026-03-01T12:00:00Z') });

describe('polling an XP change', () => {
  it('answers from the record while the change is fresh, then from its run: a run ended without an outcome reads failed', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['levels:write'] });
    const userId = await addTestMember(database.db, guild);
    const posted = await app.http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, { headers: bearer(key), body: { type: 'add', amount: 10 } });
    const handle = gateway.client.workflow.getHandle(xpChangeWorkflowId(guild.id, posted.body.changeId));
    await eventually(() => handle.describe().then(() => true, () => false), (started) => started);
    await handle.terminate('ended by the test');
    const poll = () => app.http('GET', `/guilds/${guild.id}/levels/xp-changes/${posted.body.changeId}`, { headers: bearer(key) });

    clock.advance(RECORD_ANSWERS_FOR_MS - 1);
    expect((await poll()).body).toMatchObject({ status: 'pending', result: null, error: null });
    clock.advance(1);
    expect((await poll()).body).toMatchObject({ status: 'failed', result: null, error: 'INTERNAL_ERROR' });
  });
});
