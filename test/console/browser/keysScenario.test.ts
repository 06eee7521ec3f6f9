import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer } from '../../harness/fixtures.js';
import { managedGuild } from '../consoleClient.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

const { database, app } = useApiTestBed();
const browser = useBrowser();

describe('API keys in a real browser', { timeout: 120_000 }, () => {
  it('signs in, creates a key, calls the REST API with it, revokes it, and the next call is refused 401', async () => {
    const guild = await managedGuild(database.db, 'Browser Guild');
    const { page, context } = await browser.open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    await page.goto(`${app.baseUrl}/console`);
    await expect.poll(() => page.url()).toBe(`${app.baseUrl}/console/sign-in`);
    await expectAccessible(page);
    await screenshot(page, 'sign-in');

    await signInLocally(page, app.baseUrl, guild.managerId);
    await expectAccessible(page);
    await screenshot(page, 'servers');
    // Keyboard first: the first Tab lands on the skip link, drawn with a visible focus ring.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.getByRole('link', { name: 'Browser Guild' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/overview`);
    await page.getByRole('link', { name: 'API keys', exact: true }).first().click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/keys`);

    await page.getByLabel('Name').fill('Dashboard');
    await page.getByRole('checkbox', { name: 'guild:read' }).check();
    await page.getByRole('checkbox', { name: 'levels:read' }).check();
    await page.getByRole('radio', { name: 'in 30 days' }).check();
    await expectAccessible(page);
    await screenshot(page, 'keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const field = page.getByLabel('Your new API key');
    const key = await field.inputValue();
    expect(key).toMatch(/\S{20,}/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectAccessible(page);
    await screenshot(page, 'key-created');

    const call = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(call.status).toBe(200);

    await page.getByRole('link', { name: 'Back to the API keys' }).click();
    await page.getByRole('link', { name: 'Revoke Dashboard' }).click();
    await expectAccessible(page);
    await screenshot(page, 'key-revoke');
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/keys`);
    await expect.poll(() => page.locator('td[data-state="revoked"]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'keys-list');

    const refused = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('API_KEY_REVOKED');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Who').selectOption('console_user');
    await page.getByRole('button', { name: 'Filter' }).click();
    // Newest first: the revocation, the creation, then the sign-in (with the address it came from).
    await expect
      .poll(() => page.locator('tr[data-actor-type="console_user"] code').allTextContents())
      .toEqual(['api_key.revoke', expect.any(String), 'api_key.create', expect.any(String), 'console.signIn', expect.stringContaining('"address":"127.0.0.1"')]);
    await expectAccessible(page);
    await screenshot(page, 'audit');
  });

  it('keeps the input of a form that came back, shows a secret once across reloads, and rolls a key with an overlap', async () => {
    const guild = await managedGuild(database.db, 'Roll Guild');
    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.goto(`${app.baseUrl}/console/servers/${guild.id}/keys`);
    expect(await page.getByRole('radio', { name: 'in 90 days' }).isChecked()).toBe(true);

    // No scope picked: the form comes back with the name kept, the summary focused and linked to the field.
    await page.getByLabel('Name').fill('Worker');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Name').inputValue()).toBe('Worker');
    expect(await page.title()).toMatch(/^Error: API keys/);
    await expectAccessible(page);
    await screenshot(page, 'key-form-error');
    await page.getByRole('link', { name: 'Pick at least one scope.' }).click();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('guild:read');
    await page.getByRole('checkbox', { name: 'guild:read' }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const first = await page.getByLabel('Your new API key').inputValue();
    expect(first).toMatch(/^svc_/);

    // A reload shows the page again without the secret and creates nothing.
    await page.reload();
    await expect.poll(() => page.locator('[data-secret-gone]').count()).toBe(1);
    expect(await page.content()).not.toContain(first);
    await expectAccessible(page);
    await screenshot(page, 'key-created-reloaded');
    const keysNow = () => database.db.selectFrom('api_keys').select(['id', 'rolled_into']).where('guild_id', '=', guild.id).orderBy('id').execute();
    expect(await keysNow()).toHaveLength(1);

    await page.getByRole('link', { name: 'Back to the API keys' }).click();
    await page.getByRole('link', { name: /^Roll Worker/ }).click();
    await expectAccessible(page);
    await screenshot(page, 'key-roll');
    await page.getByRole('radio', { name: 'keeps working for 1 hour' }).check();
    await page.getByRole('button', { name: 'Roll the key' }).click();
    const rolled = await page.getByLabel('Your new API key').inputValue();
    expect(rolled).not.toBe(first);
    expect(await page.locator('[data-replaces]').textContent()).toContain('keeps working until');
    await expectAccessible(page);
    await screenshot(page, 'key-rolled');
    await page.reload();
    await expect.poll(() => page.locator('[data-secret-gone]').count()).toBe(1);
    const [old, replacement] = await keysNow();
    expect(old!.rolled_into).toBe(replacement!.id);
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(first) })).status).toBe(200);
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(rolled) })).status).toBe(200);

    await page.getByRole('link', { name: 'Back to the API keys' }).click();
    await expect.poll(() => page.locator('td[data-expiry-warning="rolled"]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'keys-rolled');
  });

  it('is readable on a phone: no horizontal scrolling of the page, and still accessible', async () => {
    const guild = await managedGuild(database.db, 'Phone Guild');
    const { page } = await browser.open();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInLocally(page, app.baseUrl, guild.managerId);
    for (const path of ['keys', 'webhooks', 'audit']) {
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/${path}`);
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, `phone-${path}`);
    }
  });

  it('refuses a form whose CSRF token was removed with 403, and a member without Manage Server sees no server', async () => {
    const guild = await managedGuild(database.db, 'Guarded Guild');
    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.goto(`${app.baseUrl}/console/servers/${guild.id}/keys`);
    await page.locator('form[action$="/keys"] input[name="_csrf"]').evaluate((input) => input.remove());
    await page.getByLabel('Name').fill('Forged');
    await page.getByRole('checkbox', { name: 'guild:read' }).check();
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Create key' }).click()]);
    expect(response.status()).toBe(403);
    await expect.poll(() => page.locator('[data-error]').getAttribute('data-error')).toBe('CSRF_TOKEN_INVALID');
    expect(await database.db.selectFrom('api_keys').select('id').where('guild_id', '=', guild.id).execute()).toEqual([]);

    const member = await browser.open();
    await signInLocally(member.page, app.baseUrl, guild.memberId);
    expect(await member.page.locator('[data-empty="servers"]').count()).toBe(1);
    await expectAccessible(member.page);
    // Forged with the member's own valid CSRF token: the manager rule refuses it.
    const csrf = await member.page.locator('input[name="_csrf"]').first().inputValue();
    const forged = await member.page.request.post(`${app.baseUrl}/console/servers/${guild.id}/keys`, {
      form: { _csrf: csrf, name: 'forged', scopes: 'guild:read' },
    });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('data-error="NOT_A_SERVER_MANAGER"');
    await screenshot(member.page, 'no-server');
  });
});
