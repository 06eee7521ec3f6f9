import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

/** Debian's chromium (`.ci/run` installs it); `npx playwright install` cannot download on these machines. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Script errors and CSP violations each page met (a page must run with no inline script or style). */
const pageProblems = new WeakMap<Page, string[]>();

/** Screenshots of every page a scenario visits: test artifacts, gitignored. */
export const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/console/', import.meta.url));

/** The desktop viewport `open()` starts with, and a phone's (the width every scenario's phone pass uses). */
const DESKTOP = { width: 1100, height: 800 };
const PHONE = { width: 390, height: 844 };

export interface BrowserBed {
  browser: Browser;
  /** A fresh browser profile (cookies of its own) with one page. */
  open(): Promise<{ context: BrowserContext; page: Page }>;
}

/** One headless Chromium for a test file, closed after its tests. */
export function useBrowser(): BrowserBed {
  const bed = {} as BrowserBed;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The sandbox needs user namespaces that containers (and root) do not have.
    bed.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    bed.open = async () => {
      const context = await bed.browser.newContext({ viewport: DESKTOP });
      contexts.push(context);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
      });
      pageProblems.set(page, problems);
      return { context, page };
    };
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await bed.browser?.close();
  });
  return bed;
}

/** Saves a full-page screenshot as `<name>.png` among the artifacts. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

/** axe-core on the page as it is: no serious or critical violation (WCAG 2.1 A and AA rules); no script error or CSP violation so far. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(pageProblems.get(page) ?? []).toEqual([]);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  expect(serious, `${page.url()}`).toEqual([]);
}

/** The page fits the viewport's width: nothing scrolls sideways (the phone-width check); `name` says which page failed. */
export async function expectFitsWidth(page: Page, name = page.url()): Promise<void> {
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect([name, fits]).toEqual([name, true]);
}

/**
 * The page as it is, at desktop width then at a phone's: axe at both, no sideways scroll on the phone, screenshots
 * `<name>` and `<name>-phone`; back at desktop width after.
 */
export async function checkBothWidths(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await expectFitsWidth(page, name);
  await expectAccessible(page);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** Signs in through the development sign-in page as the given local member. */
export async function signInLocally(page: Page, baseUrl: string, userId: string): Promise<void> {
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('Sign in as').selectOption(userId);
  await Promise.all([page.waitForURL(`${baseUrl}/console`), page.getByRole('button', { name: 'Sign in' }).click()]);
}
