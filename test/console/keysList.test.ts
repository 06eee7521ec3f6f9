import { describe, expect, it } from 'vitest';
import { SENSITIVE_SCOPES } from '../../src/core/scopes.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { createTestKey, snowflake } from '../harness/fixtures.js';
import { consoleClient, managedGuild } from './consoleClient.js';

const now = new Date('2026-11-28T10:00:00.000Z');
const { database, app } = useApiTestBed({ now, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });
const DAY = 86_400_000;

async function keysPage(setUp: (guild: Awaited<ReturnType<typeof managedGuild>>) => Promise<void> = async () => {}, plan: 'free' | 'pro' = 'pro') {
  const guild = await managedGuild(database.db);
  await database.db.updateTable('guilds').set({ plan }).where('id', '=', guild.id).execute();
  await setUp(guild);
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, html: (await client.get(`/console/servers/${guild.id}/keys`)).text };
}

const rowOf = (html: string, id: number) => new RegExp(`<tr data-key-id="${id}">(.*?)</tr>`, 's').exec(html)?.[1] ?? '';
const expiresAt = (id: number, at: Date) => database.db.updateTable('api_keys').set({ expires_at: at }).where('id', '=', id).execute();

describe('the API keys list and create form', () => {
  it('marks the sensitive scopes in the picker, each scope described, and defaults the expiry to 90 days', async () => {
    const { html } = await keysPage();
    for (const scope of ['guild:read', 'bank:read', 'bank:write', 'shop:write', 'flows:run', 'moderation:read', 'moderation:write', 'appeals:write', 'levels:write']) {
      const tagged = new RegExp(`value="${scope}"[^>]*/> ${scope} <span class="tag">sensitive</span>`).test(html);
      expect([scope, tagged]).toEqual([scope, SENSITIVE_SCOPES.has(scope as never)]);
    }
    expect(SENSITIVE_SCOPES.size).toBe(6);
    expect(html).toMatch(/value="shop:write" aria-describedby="scope-help-shop-write"/);
    expect(html).toMatch(/<span id="scope-help-shop-write" class="help">buy for members/);
    expect(html).toMatch(/name="expires" value="90" checked/);
    expect(html).not.toMatch(/name="expires" value="never" checked/);
  });

  it('marks a key’s sensitive scopes in the list', async () => {
    let id = 0;
    const { html } = await keysPage(async (guild) => {
      id = (await createTestKey(database.db, guild, { scopes: ['guild:read', 'moderation:write'] })).id;
    });
    expect(rowOf(html, id)).toContain('<li>guild:read</li>');
    expect(rowOf(html, id)).toContain('<li data-sensitive>moderation:write <span class="tag">sensitive</span></li>');
  });

  it('counts the keys in use against the plan limit, leaving out revoked and expired ones', async () => {
    const { html } = await keysPage(async (guild) => {
      await createTestKey(database.db, guild);
      const revoked = await createTestKey(database.db, guild);
      await database.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', revoked.id).execute();
      await expiresAt((await createTestKey(database.db, guild)).id, new Date(now.getTime() - 1));
    }, 'free');
    expect(/data-key-count[^>]*>([^<]*)/.exec(html)?.[1]).toBe('1 of 2 keys in use on the free plan.');
  });

  it('says when the limit is reached', async () => {
    const { html } = await keysPage(async (guild) => {
      await createTestKey(database.db, guild);
      await createTestKey(database.db, guild);
    }, 'free');
    expect(/<p data-key-count="true" class="warning">(.*?)<\/p>/.exec(html)?.[1]).toBe('2 of 2 keys in use on the free plan: revoke one before creating another.');
  });

  it('warns of keys expiring within 7 days and of expired ones, in the row and above the list', async () => {
    const ids: Record<string, number> = {};
    const { html } = await keysPage(async (guild) => {
      for (const [name, at] of [
        ['soon', new Date(now.getTime() + 3 * DAY)],
        ['later', new Date(now.getTime() + 8 * DAY)],
        ['gone', new Date(now.getTime() - DAY)],
        ['never', null],
      ] as const) {
        ids[name] = (await createTestKey(database.db, guild, { name })).id;
        if (at) await expiresAt(ids[name]!, at);
      }
    });
    const warningOf = (name: string) => /data-expiry-warning="([a-z-]+)"/.exec(rowOf(html, ids[name]!))?.[1];
    expect([warningOf('soon'), warningOf('later'), warningOf('gone'), warningOf('never')]).toEqual(['expires-soon', undefined, 'expired', undefined]);
    expect(rowOf(html, ids.soon!)).toContain('Expires in 3 days: roll it to keep it working.');
    expect(html).toMatch(/data-expiry-notice[^>]*>One key expires within 7 days: roll them before they stop working\. One key has expired/);
  });

  it('shows no notice when no key needs attention', async () => {
    const { html } = await keysPage(async (guild) => {
      await createTestKey(database.db, guild);
    });
    expect(html).not.toContain('data-expiry-notice');
  });

  it("shows the creator's name where the platform knows them, the id otherwise", async () => {
    const stranger = snowflake();
    const ids: number[] = [];
    const { guild, html } = await keysPage(async (g) => {
      ids.push((await createTestKey(database.db, g, { createdBy: g.managerId })).id);
      ids.push((await createTestKey(database.db, g, { createdBy: stranger })).id);
      ids.push((await createTestKey(database.db, g, { createdBy: null })).id);
    });
    expect(rowOf(html, ids[0]!)).toContain(`<td data-created-by="${guild.managerId}">manager</td>`);
    expect(rowOf(html, ids[1]!)).toContain(`<td data-created-by="${stranger}">${stranger}</td>`);
    expect(rowOf(html, ids[2]!)).toContain('<td>—</td>');
  });
});
