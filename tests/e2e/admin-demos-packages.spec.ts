/**
 * The demos and packages studio, as the admin in Chromium: create, edit, reorder (mouse and keyboard),
 * duplicate and delete, each time checking what a visitor gets through the route cache (the list page,
 * the detail page, the landing page's section); BEST VALUE live in the editor and on the public card; an
 * inactive package's preview; a renamed package's 301; axe on the four pages. Every record a test
 * creates it deletes again, and the demo content keeps its order, for the specs that run after.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Page } from './support/fixtures';
import { DEMO_SERVICES } from '../../src/server/seed/demo-catalog';
import { ADMIN_STATE, gotoHydrated, MEMBER_STATE } from './support/accounts';
import { dragTo, moveByKeyboard } from './support/sortable';
import { fillRichHtml } from './support/rich-text';
import { VIEWPORTS } from './support/public-pages';

// Tall enough that a whole list is on screen: a mouse drag needs both ends of its path in the viewport.
test.use({ storageState: ADMIN_STATE, viewport: { width: 1280, height: 1200 } });

const unique = () => Date.now().toString(36).slice(-5);
const serviceName = (id: string) => DEMO_SERVICES.find((s) => s.id === id)!.name;

/** A visitor without cookies, who does not follow redirects: what the route cache hands everyone. */
let visitor: APIRequestContext;
test.beforeAll(async ({ playwright, baseURL }) => {
  visitor = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
});

/**
 * Records this file creates, under every id they may have by then (a copy, a rename). Each test deletes its
 * own; this sweep runs after a failed step too, so a demo left at the top of the list never changes the
 * landing page the next spec sees.
 */
const created: { actions: 'demos' | 'packages'; id: string }[] = [];
test.afterAll(async ({ playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
  for (const { actions, id } of created) {
    // A record already deleted answers "not found": nothing to do.
    await admin.post(`/_actions/admin.${actions}.remove`, { headers: { origin: baseURL! }, data: { id } });
  }
  await admin.dispose();
  await visitor.dispose();
});

async function visit(path: string) {
  const res = await visitor.get(path, { maxRedirects: 0 });
  return { status: res.status(), html: await res.text(), headers: res.headers() };
}

/** The landing page's cards of one section (#demos, #packages), as a visitor's browser shows them. */
async function landingCards(browser: Browser, section: 'demos' | 'packages'): Promise<string[]> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/');
  const names = await page.locator(`#${section} [data-card] h3 a`).allTextContents();
  await context.close();
  return names.map((n) => n.trim());
}

/** The names of a public list page's cards, in order. */
async function listNames(path: '/demos' | '/packages'): Promise<string[]> {
  const { html } = await visit(path);
  return [...html.matchAll(/<h2[^>]*>\s*<a href="\/(?:demo|package)\/[^"]+"[^>]*>\s*([^<]+?)\s*<\/a>/g)].map((m) => m[1]!);
}

async function rowIds(page: Page): Promise<string[]> {
  return page.locator('[data-row]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.row!));
}


async function orderSaved(page: Page) {
  await expect(page.locator('[data-toast="success"]').filter({ hasText: 'Order saved.' }).last()).toBeVisible();
}

async function save(page: Page) {
  await page.getByRole('button', { name: /^Save/ }).click();
  await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
}

async function confirmDelete(page: Page) {
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
}

test('demo: create, edit, reorder by keyboard and mouse, duplicate and delete; the public site follows each step', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const name = `E2E Demo ${unique()}`;
  const landingBefore = await landingCards(browser, 'demos');
  const demosBefore = await listNames('/demos');

  // Create.
  await gotoHydrated(page, '/admin/demos/new');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Short text').fill('A demo made by the e2e suite.');
  await page.getByRole('button', { name: '+ Add audience' }).click();
  await page.getByRole('textbox', { name: 'audience 1', exact: true }).fill('Dental clinics');
  await page.getByRole('button', { name: '+ Add audience' }).click();
  await page.getByRole('textbox', { name: 'audience 2', exact: true }).fill('Physio practices');
  await fillRichHtml(page, 'Description', '<p>It answers <strong>every</strong> enquiry.</p>');
  await page.getByRole('button', { name: /^Create demo/ }).click();
  await page.waitForURL(/\/admin\/demos\/e2e-demo-[a-z0-9]+$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  created.push({ actions: 'demos', id }, { actions: 'demos', id: `${id}-copy` });
  expect(await listNames('/demos')).toEqual([...demosBefore, name]);
  const detail = await visit(`/demo/${id}`);
  expect(detail.status).toBe(200);
  expect(detail.html).toContain('<strong>every</strong>');
  expect(detail.html).toContain('Physio practices');

  // Edit.
  await gotoHydrated(page, `/admin/demos/${id}`);
  await page.getByLabel('Name', { exact: true }).fill(`${name} v2`);
  await page.getByRole('textbox', { name: 'audience 2', exact: true }).fill('Chiropractors');
  await save(page);
  expect((await visit(`/demo/${id}`)).html).toContain('Chiropractors');
  expect(await listNames('/demos')).toEqual([...demosBefore, `${name} v2`]);

  // Reorder: to the top by keyboard (the landing page's first four now start with it) …
  await gotoHydrated(page, '/admin/demos');
  await moveByKeyboard(page, `${name} v2`, demosBefore.length + 1, 1);
  await orderSaved(page);
  expect((await rowIds(page))[0]).toBe(id);
  expect(await landingCards(browser, 'demos')).toEqual([`${name} v2`, ...landingBefore.slice(0, 3)]);
  // … and back to the end with the mouse.
  await gotoHydrated(page, '/admin/demos');
  await dragTo(page, page.getByRole('button', { name: `Move ${name} v2`, exact: true }), page.locator('[data-row]').last());
  await orderSaved(page);
  expect((await rowIds(page)).at(-1)).toBe(id);
  expect(await landingCards(browser, 'demos')).toEqual(landingBefore);
  expect(await listNames('/demos')).toEqual([...demosBefore, `${name} v2`]);

  // Duplicate from the editor; delete the copy from the list.
  await gotoHydrated(page, `/admin/demos/${id}`);
  await page.getByRole('button', { name: 'Duplicate' }).click();
  await page.waitForURL(new RegExp(`/admin/demos/${id}-copy$`));
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(`${name} v2 (copy)`);
  expect(await listNames('/demos')).toEqual([...demosBefore, `${name} v2`, `${name} v2 (copy)`]);
  await gotoHydrated(page, '/admin/demos');
  await page.locator(`[data-row="${id}-copy"]`).getByRole('button', { name: /^Delete/ }).click();
  await confirmDelete(page);
  await expect(page.locator(`[data-row="${id}-copy"]`)).toHaveCount(0);
  expect((await visit(`/demo/${id}-copy`)).status).toBe(404);

  // Delete from the editor: the site is as it was.
  await gotoHydrated(page, `/admin/demos/${id}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await confirmDelete(page);
  await page.waitForURL(/\/admin\/demos$/);
  expect((await visit(`/demo/${id}`)).status).toBe(404);
  expect(await listNames('/demos')).toEqual(demosBefore);
});

test('package: create with services, features and BEST VALUE live; reorder, duplicate, rename, deactivate, delete; the public site follows', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const name = `E2E Package ${unique()}`;
  const landingBefore = await landingCards(browser, 'packages');
  const packagesBefore = await listNames('/packages');
  const status = page.locator('[data-best-value-status]');

  await gotoHydrated(page, '/admin/packages/new');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Short text').fill('A package made by the e2e suite.');
  await page.getByLabel('Setup price (USD)').fill('1500');
  await page.getByLabel('Monthly price (USD)').fill('249');
  const pick = async (serviceId: string) => {
    await page.getByLabel('Add a service').selectOption(serviceId);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
  };
  await pick('appointment-reminders');
  await pick('ai-lead-outreach');
  // Two services: the rule is not met yet, and the editor says what is missing.
  await expect(status).toHaveAttribute('data-best-value-status', 'no');
  await expect(status).toContainText('1 more included service');
  await pick('lead-capture-funnels');
  await expect(status).toHaveAttribute('data-best-value-status', 'yes');
  await page.getByLabel('Setup price (USD)').fill('999');
  await expect(status).toContainText('a setup price of at least $1,000 (now $999)');
  await page.getByLabel('Setup price (USD)').fill('1000');
  await expect(status).toHaveAttribute('data-best-value-status', 'yes');

  // Included services reordered by keyboard: the outreach service first.
  await moveByKeyboard(page, serviceName('ai-lead-outreach'), 2, 1);
  await expect(page.locator('[data-pick]')).toHaveCount(3);
  expect(await page.locator('[data-pick]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.pick))).toEqual([
    'ai-lead-outreach',
    'appointment-reminders',
    'lead-capture-funnels',
  ]);

  // Two features, the second moved above the first by keyboard.
  const features = page.locator('[data-object-item]');
  await page.getByRole('button', { name: '+ Add feature' }).click();
  await features.nth(0).getByLabel('Title').fill('Setup in a week');
  await features.nth(0).getByLabel('Description').fill('Built and connected for you.');
  await page.getByRole('button', { name: '+ Add feature' }).click();
  await features.nth(1).getByLabel('Title').fill('Monthly tuning');
  await moveByKeyboard(page, 'Monthly tuning', 2, 1);
  await expect(features.nth(0).getByLabel('Title')).toHaveValue('Monthly tuning');
  await expect(features.nth(1).getByLabel('Description')).toHaveValue('Built and connected for you.');

  await page.getByRole('button', { name: /^Create package/ }).click();
  await page.waitForURL(/\/admin\/packages\/e2e-package-[a-z0-9]+$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  for (const candidate of [id, `${id}-copy`, `${id}-renamed`]) created.push({ actions: 'packages', id: candidate });

  // The public card: BEST VALUE, services in the chosen order, features in theirs.
  const { html: listHtml } = await visit('/packages');
  expect(await listNames('/packages')).toEqual([...packagesBefore, name]);
  const card = listHtml.slice(listHtml.indexOf(`data-pricing-tier="${id}"`));
  const cardHtml = card.slice(0, card.indexOf('</article>'));
  expect(cardHtml).toContain('data-best-value');
  expect([...cardHtml.matchAll(/href="\/service\/([^"]+)"/g)].map((m) => m[1])).toEqual(['ai-lead-outreach', 'appointment-reminders', 'lead-capture-funnels']);
  expect(cardHtml.indexOf('Monthly tuning')).toBeLessThan(cardHtml.indexOf('Setup in a week'));
  expect(cardHtml).not.toContain('1,000');
  const detail = await visit(`/package/${id}`);
  expect(detail.status).toBe(200);
  expect(detail.html).toContain('Built and connected for you.');
  expect(detail.html).toContain('href="/service/lead-capture-funnels"');

  // Below the rule after an edit: no badge in the editor, none on the card.
  await gotoHydrated(page, `/admin/packages/${id}`);
  await page.getByRole('button', { name: `Remove ${serviceName('lead-capture-funnels')}` }).click();
  await expect(status).toHaveAttribute('data-best-value-status', 'no');
  await save(page);
  const afterEdit = await visit('/packages');
  const editedCard = afterEdit.html.slice(afterEdit.html.indexOf(`data-pricing-tier="${id}"`));
  expect(editedCard.slice(0, editedCard.indexOf('</article>'))).not.toContain('data-best-value');
  expect((await visit(`/package/${id}`)).html).not.toContain('href="/service/lead-capture-funnels"');

  // Reorder: to the top with the mouse (first on the landing page) …
  await gotoHydrated(page, '/admin/packages');
  await dragTo(page, page.getByRole('button', { name: `Move ${name}`, exact: true }), page.locator('[data-row]').first());
  await orderSaved(page);
  expect((await rowIds(page))[0]).toBe(id);
  expect(await landingCards(browser, 'packages')).toEqual([name, ...landingBefore.slice(0, 3)]);
  expect((await listNames('/packages'))[0]).toBe(name);
  // … and back to the end by keyboard.
  await gotoHydrated(page, '/admin/packages');
  const rows = (await rowIds(page)).length;
  await moveByKeyboard(page, name, 1, rows);
  await orderSaved(page);
  expect((await rowIds(page)).at(-1)).toBe(id);
  expect(await landingCards(browser, 'packages')).toEqual(landingBefore);

  // Duplicate from the list: an inactive copy, not public, with its services.
  await page.locator(`[data-row="${id}"]`).getByRole('button', { name: /^Duplicate/ }).click();
  await page.waitForURL(new RegExp(`/admin/packages/${id}-copy$`));
  await expect(page.getByRole('checkbox', { name: /Active/ })).not.toBeChecked();
  await expect(page.locator('[data-pick]')).toHaveCount(2);
  expect((await visit(`/package/${id}-copy`)).status).toBe(404);
  expect(await listNames('/packages')).toEqual([...packagesBefore, name]);

  // Rename the original: the old address answers 301 to the new one.
  await gotoHydrated(page, `/admin/packages/${id}`);
  await page.getByLabel('URL name').fill(`${id}-renamed`);
  await save(page);
  await expect(page).toHaveURL(new RegExp(`/admin/packages/${id}-renamed$`));
  const moved = await visit(`/package/${id}`);
  expect(moved.status).toBe(301);
  expect(moved.headers.location).toBe(`/package/${id}-renamed`);
  expect((await visit(`/package/${id}-renamed`)).status).toBe(200);

  // Deactivate: gone from the site; "View on site" now opens the admin's preview.
  await page.getByRole('checkbox', { name: /Active/ }).uncheck();
  await save(page);
  await expect(page.getByRole('link', { name: /View on site/ })).toHaveAttribute('href', `/package/${id}-renamed?preview`);
  expect((await visit(`/package/${id}-renamed`)).status).toBe(404);
  expect(await listNames('/packages')).toEqual(packagesBefore);

  // Delete both from the list, with confirmation: the site is as it was.
  await gotoHydrated(page, '/admin/packages');
  for (const rowId of [`${id}-renamed`, `${id}-copy`]) {
    await page.locator(`[data-row="${rowId}"]`).getByRole('button', { name: /^Delete/ }).click();
    await confirmDelete(page);
    await expect(page.locator(`[data-row="${rowId}"]`)).toHaveCount(0);
  }
  await gotoHydrated(page, '/admin/packages');
  expect(await rowIds(page)).not.toContain(`${id}-copy`);
  expect(await listNames('/packages')).toEqual(packagesBefore);
  expect(await landingCards(browser, 'packages')).toEqual(landingBefore);
});

test('an inactive package: the admin previews it at its real URL with the bar, never cached; a visitor and a member get the 404', async ({ page, browser }) => {
  const inactive = 'launch-special-2024';
  expect((await visit(`/package/${inactive}?preview`)).status).toBe(404);
  const response = await page.goto(`/package/${inactive}?preview`);
  expect(response?.status()).toBe(200);
  await expect(page.locator('[data-preview-bar]')).toContainText('Preview — not public');
  await expect(page.locator('[data-preview-bar]').getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/admin/packages/${inactive}`);
  expect(response?.headers()['cache-control']).toBe('private, no-store');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  // The admin's answer is not what anyone else gets next, from the cache or otherwise.
  expect((await visit(`/package/${inactive}?preview`)).status).toBe(404);
  expect((await visit(`/package/${inactive}`)).status).toBe(404);
  const member = await browser.newContext({ storageState: MEMBER_STATE });
  const memberPage = await member.newPage();
  expect((await memberPage.goto(`/package/${inactive}?preview`))?.status()).toBe(404);
  await expect(memberPage.locator('[data-preview-bar]')).toHaveCount(0);
  await member.close();
  // An active package with ?preview is just its page.
  const active = await page.goto('/package/clinic-growth-system?preview');
  expect(active?.status()).toBe(200);
  await expect(page.locator('[data-preview-bar]')).toHaveCount(0);
});

test('bad input: negative and non-numeric prices, a 100 KB name; field messages, nothing saved, in the editor and at the Action', async ({ page, baseURL }) => {
  const marker = `E2E Refused ${unique()}`;
  const packagesBefore = await listNames('/packages');
  const setup = page.getByRole('textbox', { name: 'Setup price (USD)' });
  const monthly = page.getByRole('textbox', { name: 'Monthly price (USD)' });
  const nameField = page.getByRole('textbox', { name: 'Name', exact: true });

  await gotoHydrated(page, '/admin/packages/new');
  await nameField.fill(marker);
  await setup.fill('-5');
  await monthly.fill('twelve');
  await page.getByRole('button', { name: /^Create package/ }).click();
  await expect(setup).toHaveAttribute('aria-invalid', 'true');
  await expect(setup).toHaveAccessibleDescription('Must be at least 0');
  await expect(monthly).toHaveAttribute('aria-invalid', 'true');
  await expect(monthly).toHaveAccessibleDescription('Must be a number');
  // A 100 KB name, pasted: the field keeps what it can hold and says the rule.
  await setup.fill('1500');
  await monthly.fill('');
  await nameField.fill('N'.repeat(100 * 1024));
  await page.getByRole('button', { name: /^Create package/ }).click();
  await expect(nameField).toHaveAccessibleDescription('Must be at most 200 characters');
  await expect(setup).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/admin\/packages\/new$/);

  // The same values sent straight to the Actions (what a script would do): 400 with the messages by field.
  const send = (name: string, fields: Record<string, unknown>) =>
    page.request.post(`/_actions/${name}`, { headers: { origin: baseURL! }, data: { fields } });
  const pkg = await send('admin.packages.create', { name: marker, priceSetup: -5, priceMonthly: 'twelve' });
  expect(pkg.status()).toBe(400);
  const pkgErrors = JSON.stringify(await pkg.json());
  expect(pkgErrors).toContain('Must be at least 0');
  expect(pkgErrors).toContain('Must be a number');
  const huge = await send('admin.packages.create', { name: 'N'.repeat(100 * 1024), priceSetup: 1500 });
  expect(huge.status()).toBe(400);
  expect(JSON.stringify(await huge.json())).toContain('Must be at most 200 characters');
  const demo = await send('admin.demos.create', { name: 'D'.repeat(100 * 1024) });
  expect(demo.status()).toBe(400);
  expect(JSON.stringify(await demo.json())).toContain('Must be at most 200 characters');

  // Nothing was stored: not in the admin's lists, not on the site.
  for (const [list, q] of [['/admin/packages', marker], ['/admin/packages', 'NNNNNNNNNN'], ['/admin/demos', 'DDDDDDDDDD']] as const) {
    await gotoHydrated(page, `${list}?q=${encodeURIComponent(q)}`);
    await expect(page.locator('[data-row]')).toHaveCount(0);
  }
  expect(await listNames('/packages')).toEqual(packagesBefore);
});

// One test per page (both widths each): a failure names the page, and each stays within its own time.
for (const path of ['/admin/demos', '/admin/demos/dental-enquiry-assistant', '/admin/demos/new', '/admin/packages', '/admin/packages/clinic-growth-system', '/admin/packages/new']) {
  test(`${path} passes axe-core at phone and desktop widths`, async ({ page }) => {
    test.setTimeout(60_000);
    const failures: string[] = [];
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await gotoHydrated(page, path);
      const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      for (const v of violations) failures.push(`${width}: ${v.id} — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
}
