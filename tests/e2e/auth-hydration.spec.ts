/**
 * /auth and /verify-email are rendered on the server from the request's own session: the browser hydrates
 * them without a mismatch for a visitor, an unverified and a verified member, and nobody's server HTML
 * shows another person's name or email.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from './support/fixtures';
import { ADMIN_STATE, MEMBER_STATE, freshClientIp, gotoHydrated, newAccount, savedAccounts, signUpViaApi } from './support/accounts';

// React's production messages (#418 text mismatch, #423 recovered by client render, #425 text content)
// and their development wording.
const HYDRATION_ERROR = /#418|#423|#425|Hydration failed|did not match|hydrat/i;

type Visitor = 'visitor' | 'unverified member' | 'verified member';

/** What each visitor sees once the island runs: [path, test id] in the order they are opened. */
const EXPECTED: Record<Visitor, [string, string][]> = {
  visitor: [
    ['/auth', 'login-form'],
    // The guard sends visitors from /verify-email to /auth.
    ['/verify-email', 'login-form'],
  ],
  'unverified member': [
    ['/auth', 'already-signed-in'],
    ['/verify-email', 'verify-pending'],
  ],
  'verified member': [
    ['/auth', 'already-signed-in'],
    ['/verify-email', 'verified'],
  ],
};

async function contextFor(browser: Browser, baseURL: string, visitor: Visitor): Promise<BrowserContext> {
  const headers = { extraHTTPHeaders: { 'x-real-ip': freshClientIp() } };
  if (visitor === 'verified member') return browser.newContext({ ...headers, storageState: MEMBER_STATE });
  const context = await browser.newContext(headers);
  // Signing up signs this browser in, unverified (its request context shares the browser's cookies).
  if (visitor === 'unverified member') expect((await signUpViaApi(context.request, baseURL, newAccount('unverified'))).status()).toBe(200);
  return context;
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

for (const visitor of Object.keys(EXPECTED) as Visitor[]) {
  test(`${visitor}: /auth and /verify-email hydrate without a mismatch`, async ({ browser, baseURL }) => {
    const context = await contextFor(browser, baseURL!, visitor);
    const page = await context.newPage();
    const errors = collectErrors(page);
    for (const [path, testId] of EXPECTED[visitor]) {
      await gotoHydrated(page, path);
      // The island's own state is on screen, so React has committed (and reported any mismatch).
      await expect(page.getByTestId(testId), path).toBeVisible();
    }
    expect(errors.filter((e) => HYDRATION_ERROR.test(e))).toEqual([]);
    await context.close();
  });
}

test("the server HTML of /auth shows the requester's own account, never an earlier one's", async ({ browser }) => {
  const { member, admin } = savedAccounts();
  const html = async (storageState?: string) => {
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-real-ip': freshClientIp() }, ...(storageState ? { storageState } : {}) });
    const text = await (await context.request.get('/auth')).text();
    await context.close();
    return text;
  };
  const signedInAs = (account: typeof member) => new RegExp(`Signed in as <strong[^>]*>${account.firstName} ${account.lastName}</strong>`);

  // Member A first, then a visitor and member B on the same server process.
  expect(await html(MEMBER_STATE)).toMatch(signedInAs(member));
  const asVisitor = await html();
  const asOtherMember = await html(ADMIN_STATE);
  expect(asOtherMember).toMatch(signedInAs(admin));
  for (const [who, page] of [
    ['visitor', asVisitor],
    ['other member', asOtherMember],
  ] as const) {
    expect(page, who).not.toContain(member.email);
    expect(page, who).not.toContain(`${member.firstName} ${member.lastName}`);
  }
});
