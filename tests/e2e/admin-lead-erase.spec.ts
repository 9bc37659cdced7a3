/**
 * Erasing a person (issue 39, GDPR article 17), as the admin in Chromium: a visitor who requested an audit
 * (with a phone) and left their address in the chat, with a team note, is erased from their page after a
 * confirmation that names what goes and what is kept; then every admin list and search, every CSV export
 * and a fresh content export are read for their email, name, business and phone (nothing), their page is a
 * 404, and a member never reaches the Action. The page passes axe with the section and the dialog open.
 */
import { expect, test, type Browser } from './support/fixtures';
import { axeViolations } from './support/axe';
import { ADMIN_STATE, freshClientIp, gotoHydrated, MEMBER_STATE } from './support/accounts';
import { callAction } from './support/admin-actions';

test.use({ storageState: ADMIN_STATE });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const base64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

async function visitorRequestsAudit(browser: Browser, v: { fullName: string; email: string; business: string; phone: string }) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const visitor = await context.newPage();
  await gotoHydrated(visitor, '/free-audit');
  await visitor.getByLabel('Full name', { exact: true }).fill(v.fullName);
  await visitor.getByLabel('Email', { exact: true }).fill(v.email);
  await visitor.getByLabel('Business name').fill(v.business);
  await visitor.getByLabel('Phone (optional)').fill(v.phone);
  await visitor.getByLabel('Clinic').check();
  await visitor.getByLabel('More leads').check();
  await visitor.getByLabel(/I agree to be contacted/).check();
  await visitor.getByRole('button', { name: 'Request my free audit' }).click();
  await expect(visitor.getByTestId('audit-thank-you')).toBeVisible();
  // The same person in the chat, from that browser.
  const visitorId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const headers = { origin: new URL(visitor.url()).origin, 'x-chat-visitor': visitorId, 'x-real-ip': freshClientIp() };
  expect((await visitor.request.post('/api/chat/contact', { headers, data: { name: v.fullName, email: v.email, message: `Call me on ${v.phone}` } })).status()).toBe(200);
  await context.close();
}

test('the admin erases a person on request: the dialog names what goes; afterwards no list, search or export finds them', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const id = unique();
  const person = { fullName: `Zora Erasmus ${id}`, email: `zora-${id}@example.com`, business: `Zora Studio ${id}`, phone: `+44 20 7946 ${String(Date.now()).slice(-4)}` };
  const traces = [person.email, person.fullName, person.business, person.phone];
  await visitorRequestsAudit(browser, person);
  expect((await callAction(page.request, baseURL!, 'admin.leads.addNote', { email: person.email, body: `${person.fullName} wants a call in spring` })).status).toBe(200);

  // A member never reaches the Action, nor its preview.
  const member = await browser.newContext({ storageState: MEMBER_STATE });
  for (const action of ['admin.leads.erasePreview', 'admin.leads.erase']) {
    expect((await callAction(member.request, baseURL!, action, { email: person.email })).status).toBe(403);
  }
  await member.close();

  // Before: the lists, the inbox and the exports read below do hold them.
  await gotoHydrated(page, `/admin/audit?q=${encodeURIComponent(person.business)}`);
  await expect(page.locator('main')).toContainText(person.fullName);
  await gotoHydrated(page, '/admin/chat-settings');
  await expect(page.locator('main')).toContainText(person.fullName);
  for (const path of ['/api/admin/leads/export', '/api/admin/audit/export']) expect((await (await page.request.get(path)).text()).toLowerCase(), path).toContain(person.email);

  const personPath = `/admin/leads/${base64url(person.email)}`;
  await gotoHydrated(page, personPath);
  const section = page.locator('[data-erase-person]');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByRole('heading', { name: 'Erase this person' })).toBeVisible();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`person-erase-${width}.png`), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  }

  // The confirmation names what goes and what is kept; Cancel erases nothing.
  await section.getByRole('button', { name: 'Erase this person…' }).click();
  const dialog = page.getByRole('dialog', { name: `Erase ${person.fullName} for good?` });
  await expect(dialog).toBeVisible();
  for (const line of ['1 audit request', '1 chat conversation', '1 team note']) await expect(dialog.getByRole('listitem').filter({ hasText: new RegExp(`^${line}$`) })).toHaveCount(1);
  await expect(dialog).toContainText('a one-way hash of the address');
  await expect(dialog).toContainText('no follow-up sequence ever emails the address again');
  await page.screenshot({ path: test.info().outputPath('erase-dialog-1280.png') });
  expect(await axeViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await expect(page.locator('[data-person-email]')).toHaveText(person.email);

  // Erased: back on the list, told so.
  await page.locator('[data-erase-person]').getByRole('button', { name: 'Erase this person…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Erase for good' }).click();
  await page.waitForURL(/\/admin\/leads(\?|$)/);
  await expect(page.getByText('Erased: nothing of that person is left but a one-way hash of their address')).toBeVisible();

  // No admin page finds them by any of what they gave (read as the admin reads it: the page's text, not
  // the search box that repeats what was typed).
  for (const trace of traces) {
    const q = encodeURIComponent(trace);
    for (const path of [`/admin/leads?q=${q}`, `/admin/leads/board?q=${q}`, `/admin/audit?q=${q}`, `/admin/users?q=${q}`, `/admin/activity?q=${q}`]) {
      await gotoHydrated(page, path);
      expect((await page.locator('main').innerText()).toLowerCase(), path).not.toContain(trace.toLowerCase());
    }
  }
  await gotoHydrated(page, '/admin/chat-settings');
  const inbox = (await page.locator('main').innerText()).toLowerCase();
  for (const trace of traces) expect(inbox, `the chat inbox: ${trace}`).not.toContain(trace.toLowerCase());
  expect((await page.request.get(personPath)).status()).toBe(404);
  // Nor any export, nor the content export made now.
  for (const path of ['/api/admin/leads/export', '/api/admin/audit/export', '/api/admin/users/export', '/api/admin/content/export']) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(200);
    const body = (await res.text()).toLowerCase();
    for (const trace of traces) expect(body, `${path}: ${trace}`).not.toContain(trace.toLowerCase());
  }
});
