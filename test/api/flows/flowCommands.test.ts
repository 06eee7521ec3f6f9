import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../src/core/clock.js';
import { useTestDatabase } from '../../harness/database.js';
import { testGateway } from '../../harness/temporal.js';
import { cli, cliGuild } from '../../admin/cli.js';
import { threeNodeFlow, manualFlow } from './flowFixtures.js';

// The operator CLI's flow commands (npm run admin -- flow ...), in process on the file's own database.
const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-24T10:00:00Z'));
const gateway = testGateway();
const run = cli(() => database.db, clock, { temporal: gateway });
afterAll(() => gateway.client.connection.close());

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flows-'));
});
const file = async (name: string, content: unknown) => {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const auditActions = async (guildId: string) =>
  (await database.db.selectFrom('audit_log').select('action').where('guild_id', '=', guildId).where('action', 'like', 'flows.%').orderBy('id').execute()).map((a) => a.action);

describe('flow commands', () => {
  it('create, list, show, update (a new version), disable, enable, delete; every change audited', async () => {
    const { id } = await cliGuild(run);
    const created = await run('flow', 'create', '--guild', id, '--file', await file('a.json', threeNodeFlow()), '--enabled', '--json');
    expect(created.code).toBe(0);
    const flow = created.json();
    expect(flow).toMatchObject({ name: 'Double it', enabled: true, runnable: true, triggerType: 'manual', version: 1 });
    expect(flow.webhookPath).toBeUndefined();

    expect((await run('flow', 'list', '--guild', id)).stdout).toContain('Double it');
    const shown = await run('flow', 'show', '--guild', id, '--id', String(flow.id), '--json');
    expect(shown.json().definition.nodes).toHaveLength(5);

    const renamed = { ...threeNodeFlow(), name: 'Triple it' };
    const updated = await run('flow', 'update', '--guild', id, '--id', String(flow.id), '--file', await file('b.json', renamed), '--json');
    expect(updated.json()).toMatchObject({ id: flow.id, name: 'Triple it', version: 2 });
    expect((await run('flow', 'disable', '--guild', id, '--id', String(flow.id), '--json')).json()).toMatchObject({ enabled: false, runnable: false });
    expect((await run('flow', 'enable', '--guild', id, '--id', String(flow.id), '--json')).json()).toMatchObject({ enabled: true });
    expect((await run('flow', 'delete', '--guild', id, '--id', String(flow.id), '--json')).json()).toEqual({ id: flow.id, deleted: true });
    expect((await run('flow', 'list', '--guild', id, '--json')).json()).toEqual({ items: [] });
    expect(await auditActions(id)).toEqual(['flows.create', 'flows.update', 'flows.disable', 'flows.enable', 'flows.delete']);
  });

  it('a webhook flow prints its URL once; rotate-token replaces it', async () => {
    const { id } = await cliGuild(run);
    const def = manualFlow([{ id: 'a', type: 'set', values: { got: '=trigger.body' } }], { trigger: { id: 'start', type: 'trigger', trigger: { kind: 'webhook' } } });
    const created = (await run('flow', 'create', '--guild', id, '--file', await file('w.json', def), '--json')).json();
    expect(created.webhookPath).toMatch(/^\/hooks\/flows\/fwh_[A-Za-z0-9_-]{43}$/);
    expect((await run('flow', 'show', '--guild', id, '--id', String(created.id))).stdout).not.toContain(created.webhookPath.split('/').pop());
    const rotated = (await run('flow', 'rotate-token', '--guild', id, '--id', String(created.id), '--json')).json();
    expect(rotated.webhookPath).not.toBe(created.webhookPath);
  });

  it.each([
    ['a cycle', { name: 'C', nodes: [{ id: 's', type: 'trigger', trigger: { kind: 'manual' }, next: 'a' }, { id: 'a', type: 'set', values: {}, next: 'a' }] }, 'cycle: a -> a'],
    ['not JSON', '{nope', 'is not JSON'],
  ])('refuses %s with INVALID_DEFINITION and saves nothing', async (_name, content, message) => {
    const { id } = await cliGuild(run);
    const res = await run('flow', 'create', '--guild', id, '--file', await file('bad.json', content), '--json');
    expect(res.code).toBe(1);
    expect(res.error()).toEqual({ error: 'INVALID_DEFINITION', message: expect.stringContaining(message) });
    expect((await run('flow', 'list', '--guild', id, '--json')).json()).toEqual({ items: [] });
  });

  it.each([
    [['flow', 'show', '--guild', '100000000000000001', '--id', '5'], 1, 'FLOW_NOT_FOUND'],
    [['flow', 'enable', '--guild', '100000000000000001', '--id', 'x'], 2, 'INVALID_ARGUMENT'],
    [['flow', 'rotate-token', '--guild', '100000000000000001', '--id', '1'], 1, 'FLOW_NOT_FOUND'],
    [['flow', 'cancel-run', '--guild', '100000000000000001', '--execution', '9'], 1, 'FLOW_RUN_NOT_FOUND'],
    [['flow', 'list', '--guild', '100000000000000001'], 1, 'GUILD_NOT_FOUND'],
  ])('%j exits %i with %s', async (argv, code, error) => {
    const res = await run(...argv, '--json');
    expect(res.code).toBe(code);
    expect(res.error().error).toBe(error);
  });

  it('rotate-token refuses a manual flow; cancel-run refuses a run that already ended', async () => {
    const { id } = await cliGuild(run);
    const flow = (await run('flow', 'create', '--guild', id, '--file', await file('m.json', threeNodeFlow()), '--json')).json();
    expect((await run('flow', 'rotate-token', '--guild', id, '--id', String(flow.id), '--json')).error().error).toBe('NOT_A_WEBHOOK_FLOW');
    await database.db
      .insertInto('flow_runs')
      .values({ execution_id: 777_000_001, guild_id: id, flow_id: flow.id, flow_version: 1, source: 'api', nodes: '[]', timeout_seconds: 30, input: 'null', api_key_id: null, event_id: null, status: 'success', started_at: new Date() })
      .execute();
    expect((await run('flow', 'cancel-run', '--guild', id, '--execution', '777000001', '--json')).error().error).toBe('FLOW_RUN_NOT_RUNNING');
  });
});
