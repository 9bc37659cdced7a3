import { expect, test } from './support/fixtures';
import { axeViolations } from './support/axe';
import { gotoHydrated, MEMBER_STATE } from './support/accounts';
import { allPublicPaths, VIEWPORTS } from './support/public-pages';

/** The pages are shared out over this many tests per width, which run side by side (each well inside its time). */
const PARTS = 3;

// axe-core must find nothing on any public page, at phone and desktop widths.
test.describe('every public page passes axe-core', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    for (let part = 0; part < PARTS; part++) {
      test(`at ${name} width, part ${part + 1} of ${PARTS}`, async ({ page, request }) => {
        test.setTimeout(120_000);
        const paths = [...(await allPublicPaths(request)), '/this-page-does-not-exist'];
        expect(paths.length).toBeGreaterThan(10);
        await page.setViewportSize(viewport);
        const failures: string[] = [];
        for (const path of paths.filter((_, i) => i % PARTS === part)) {
          await page.goto(path);
          for (const violation of await axeViolations(page)) failures.push(`${name} ${path}: ${violation}`);
        }
        expect(failures, failures.join('\n')).toEqual([]);
      });
    }
  }
});

const ACCOUNT_PAGES = {
  visitor: ['/auth', '/auth?tab=signup', '/auth?tab=forgot', '/auth/error?error=INVALID_TOKEN', '/auth/reset-password', '/claim-admin?token=x'],
  member: ['/auth/change-password', '/claim-admin?token=x', '/verify-email'],
};

// The account pages, as a visitor and as a signed-in member, after their islands have loaded.
for (const [who, paths] of Object.entries(ACCOUNT_PAGES)) {
  test(`account pages pass axe-core for a ${who} at phone and desktop widths`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext(who === 'member' ? { storageState: MEMBER_STATE } : {});
    const page = await context.newPage();
    const failures: string[] = [];
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const path of paths) {
        await gotoHydrated(page, path);
        for (const violation of await axeViolations(page)) failures.push(`${name} ${path}: ${violation}`);
      }
    }
    await context.close();
    expect(failures, failures.join('\n')).toEqual([]);
  });
}
