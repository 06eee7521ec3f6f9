import { describe, expect, it } from 'vitest';
import { useDiscordConsole } from '../discordBed.js';
import { expectAccessible, screenshot, useBrowser } from './browser.js';

const bed = useDiscordConsole();
const browser = useBrowser();

describe('Discord sign-in in a real browser', { timeout: 120_000 }, () => {
  it('goes to Discord (the fake), comes back signed in, and lists the server the user manages', async () => {
    const guild = await bed.guild();
    bed.oauth.signInAs(guild.adminId);
    const { page, context } = await browser.open();
    await page.goto(`${bed.app.baseUrl}/console`);
    await expectAccessible(page);
    await screenshot(page, 'sign-in-discord');
    await Promise.all([page.waitForURL(`${bed.app.baseUrl}/console`), page.getByRole('link', { name: 'Sign in with Discord' }).click()]);
    await expect.poll(() => page.getByRole('link', { name: 'Discord Test Guild' }).count()).toBe(1);
    await expectAccessible(page);
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    await page.getByRole('link', { name: 'Discord Test Guild' }).click();
    await page.waitForURL(`${bed.app.baseUrl}/console/servers/${guild.id}/overview`);
    expect(await page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
  });
});
