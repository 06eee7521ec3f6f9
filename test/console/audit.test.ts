import { describe, expect, it } from 'vitest';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const { database, app } = useApiTestBed({ env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

const shown = (html: string) => [...html.matchAll(/data-audit-id="(\d+)" data-actor-type="(\w+)"/g)].map((m) => ({ id: m[1]!, actor: m[2]! }));

async function guildWithLog(entries: Array<{ actor: AuditActor; action: string }>) {
  const guild = await managedGuild(database.db);
  // createGuild wrote its own row; this file's entries come after it, and the manager's sign-in (console.signIn) last.
  for (const e of entries) await writeAudit(database.db, { guildId: guild.id, actor: e.actor, action: e.action, target: { type: 'thing', id: '1' } });
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, client };
}

describe('the audit log page', () => {
  it('shows who did what, newest first, filtered by who and by action prefix (LIKE wildcards taken literally)', async () => {
    const { guild, client } = await guildWithLog([
      { actor: { type: 'console_user', userId: '1200000000000000001' }, action: 'api_key.create' },
      { actor: { type: 'api_key', apiKeyId: 7, userId: '1200000000000000002' }, action: 'bank.transaction' },
      { actor: { type: 'operator', name: 'ops' }, action: 'webhook.add' },
      { actor: { type: 'system' }, action: 'apiXkey.create' },
    ]);
    const page = await client.get(`/console/servers/${guild.id}/audit`);
    expect(page.status).toBe(200);
    expect(shown(page.text).slice(0, 5).map((e) => e.actor)).toEqual(['console_user', 'system', 'operator', 'api_key', 'console_user']);
    expect(page.text).toContain('console.signIn');
    expect(page.text).toContain('console user 1200000000000000001');
    expect(page.text).toContain('API key #7 (for 1200000000000000002)');
    expect(shown((await client.get(`/console/servers/${guild.id}/audit?actor=api_key`)).text).map((e) => e.actor)).toEqual(['api_key']);
    const keys = await client.get(`/console/servers/${guild.id}/audit?action=api_key.`);
    expect(shown(keys.text).map((e) => e.actor)).toEqual(['console_user']);
    const bad = await client.get(`/console/servers/${guild.id}/audit?actor=robot`);
    expect(bad.status).toBe(400);
    expect(errorCodeOf(bad)).toBe('INVALID_INPUT');
  });

  it("shows a member's slash command as theirs, and filters by it", async () => {
    const { guild, client } = await guildWithLog([
      { actor: { type: 'member', userId: '1200000000000000003' }, action: 'shop.buy' },
      { actor: { type: 'system' }, action: 'members.join' },
    ]);
    const page = await client.get(`/console/servers/${guild.id}/audit`);
    expect(page.text).toContain('member 1200000000000000003 (bot command)');
    expect(shown((await client.get(`/console/servers/${guild.id}/audit?actor=member`)).text).map((e) => e.actor)).toEqual(['member']);
  });

  it('pages 50 at a time and never shows another server’s entries', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ actor: { type: 'system' } as const, action: `step.${i}` }));
    const { guild, client } = await guildWithLog(many);
    const other = await managedGuild(database.db, 'Other');
    await writeAudit(database.db, { guildId: other.id, actor: { type: 'system' }, action: 'secret.other' });
    const first = await client.get(`/console/servers/${guild.id}/audit`);
    expect(shown(first.text)).toHaveLength(50);
    const older = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    const second = await client.get(older);
    expect(shown(second.text)).toHaveLength(12);
    expect(second.text).not.toContain('rel="next"');
    expect(new Set([...shown(first.text), ...shown(second.text)].map((e) => e.id)).size).toBe(62);
    expect(first.text + second.text).not.toContain('secret.other');
    const foreign = await client.get(`/console/servers/${other.id}/audit`);
    expect(foreign.status).toBe(403);
    expect(errorCodeOf(foreign)).toBe('NOT_A_SERVER_MANAGER');
  });
});
