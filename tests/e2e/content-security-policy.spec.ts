/**
 * No page breaks its own Content-Security-Policy: a violation (an inline script without its hash, a
 * library probing eval) is a feature that silently fails for visitors and a red mark in every audit.
 */
import { expect, test, type Page } from './support/fixtures';
import { gotoHydrated, MEMBER_STATE } from './support/accounts';
import { STATIC_PUBLIC_PATHS } from './support/public-pages';

async function violationsOn(page: Page, paths: string[]): Promise<string[]> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  const found: string[] = [];
  for (const path of paths) {
    await gotoHydrated(page, path);
    const seen = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    found.push(...seen.map((v) => `${path}: ${v}`));
  }
  return found;
}

test('public and account pages raise no CSP violation for a visitor', async ({ page }) => {
  const found = await violationsOn(page, [...STATIC_PUBLIC_PATHS, '/auth', '/auth?tab=signup', '/auth/reset-password?token=x']);
  expect(found, found.join('\n')).toEqual([]);
});

test('member pages raise no CSP violation', async ({ browser }) => {
  const context = await browser.newContext({ storageState: MEMBER_STATE });
  const found = await violationsOn(await context.newPage(), ['/', '/dashboard', '/packages', '/auth/change-password', '/verify-email']);
  await context.close();
  expect(found, found.join('\n')).toEqual([]);
});
