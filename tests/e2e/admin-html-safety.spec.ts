/**
 * Nothing an admin types runs as script on the public site. As the admin, through the editors themselves,
 * script tags, event attributes, javascript: links, SVG, MathML and <style> payloads go into a service's
 * description (rich text) and its plain text fields (name, short text, benefits), and into both policy
 * pages. Visitors then open the service page, the services list, the landing page, /privacy and /terms:
 * no dialog opens, no CSP violation is raised, no <script> other than the site's own is in the page, no
 * element carries an on* attribute or a javascript: address, and plain text shows its markup as text.
 * The rich-text Preview is, byte for byte, what the public page then renders. First, the admin writes the
 * privacy policy with the visual editor's toolbar (heading, bold, list, link) and the public page follows.
 * Both policies are put back as they were at the end, also when a step fails.
 */
import { expect, test, type Browser, type Page } from './support/fixtures';
import { ADMIN_STATE, gotoHydrated } from './support/accounts';

// Each step opens several fresh visitor contexts: more than the default 30 s on a busy two-CPU machine.
test.describe.configure({ mode: 'serial', timeout: 60_000 });
test.use({ storageState: ADMIN_STATE });

const RICH_PAYLOAD = [
  '<p>Safe words stay.</p>',
  `<script>window.__pwned = 'script'; alert('script')</script>`,
  `<img src="x" onerror="window.__pwned = 'img'; alert('img')" alt="broken">`,
  `<svg onload="alert('svg')"><circle r="5"></circle><a href="javascript:alert('svg-link')"><text>svg</text></a></svg>`,
  `<p><a href="javascript:alert('link')">a javascript link</a> <a href=" JaVaScRiPt:alert('link2')">another</a></p>`,
  `<iframe src="javascript:alert('iframe')"></iframe><iframe srcdoc="<script>alert('srcdoc')</script>"></iframe>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert('math')></style></mglyph></table></mtext></math>`,
  `<style>body { display: none }</style><p style="background:url(javascript:alert('style'))">styled</p>`,
  `<details open ontoggle="alert('toggle')"><summary>s</summary>d</details>`,
  `<form action="javascript:alert('form')"><button formaction="javascript:alert('button')">go</button></form>`,
  `<noscript><p title="</noscript><img src=x onerror=alert('noscript')>"></noscript>`,
].join('');

const NAME = `Evil <img src=x onerror=alert('name')> <script>alert('name')</script> Co`;
const SHORT_TEXT = `Short <svg onload=alert('short')></svg>text <a href="javascript:alert('short')">here</a>`;
const BENEFIT = `<img src=x onerror=alert('benefit')>Benefit <b onclick="alert('b')">bold</b>`;

const POLICY_KINDS = ['privacy', 'terms'] as const;
const policyMarker = (kind: string) => `Payload ${kind} page.`;

let serviceId = '';
/** Each policy's text as the spec found it, put back by afterAll. */
const originalPolicies = new Map<string, string>();

/** The policy editor's text as HTML (its HTML view). */
async function policyHtmlIn(page: Page, kind: string): Promise<string> {
  await gotoHydrated(page, `/admin/content/${kind}`);
  const field = page.locator('[data-rich-text]');
  await field.getByRole('tab', { name: 'HTML' }).click();
  return field.getByRole('textbox', { name: /HTML$/ }).inputValue();
}

/** Puts `html` in the policy through its editor and saves it (nothing to do when it is already there). */
async function savePolicyText(page: Page, kind: string, html: string) {
  if ((await policyHtmlIn(page, kind)) === html) return;
  await page.locator('[data-rich-text]').getByRole('textbox', { name: /HTML$/ }).fill(html);
  await page.keyboard.press('Control+s');
  await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
}

/** What a visitor (no cookies) gets at `path`, through the route cache. */
async function visitorHtml(browser: Browser, path: string, selector: string): Promise<string> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(path);
  const html = await page.locator(selector).innerHTML();
  await context.close();
  return html;
}

/** The scripts a page is built with: bundles by address, JSON-LD by kind, inline ones by their text. */
async function scriptSignatures(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('script')]
      .map((s) => (s.src ? `src ${new URL(s.src).pathname}` : s.type === 'application/ld+json' ? 'json-ld' : `inline ${s.type} ${s.textContent}`))
      .sort(),
  );
}

interface Findings {
  dialogs: string[];
  cspViolations: string[];
  scripts: string[];
  handlers: string[];
  badUrls: string[];
  foreignElements: string[];
  jsonLdBroken: number;
  pwned: unknown;
}

/** Opens `path` as a visitor and reports everything that would betray injected markup. */
async function inspect(browser: Browser, path: string): Promise<Findings> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await page.waitForLoadState('load');
  const found = await page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    const handlers = all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `<${el.localName} ${a.name}>`));
    const urlAttrs = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc'];
    const badUrls = all.flatMap((el) =>
      urlAttrs.flatMap((name) => {
        const value = el.getAttribute(name);
        return value !== null && (name === 'srcdoc' || /^[\s\u0000-\u001f]*(javascript|vbscript|data):/i.test(value)) ? [`<${el.localName} ${name}="${value}">`] : [];
      }),
    );
    const foreignElements = [...document.querySelectorAll('main svg script, main iframe, main object, main embed, main math, main style, main form[action^="javascript"], .prose-content svg, .prose-content style')].map(
      (el) => el.outerHTML.slice(0, 120),
    );
    let jsonLdBroken = 0;
    for (const s of document.querySelectorAll('script[type="application/ld+json"]')) {
      try {
        JSON.parse(s.textContent ?? '');
      } catch {
        jsonLdBroken++;
      }
    }
    return {
      handlers,
      badUrls,
      foreignElements,
      jsonLdBroken,
      cspViolations: (window as unknown as { __csp: string[] }).__csp,
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    };
  });
  const scripts = await scriptSignatures(page);
  await context.close();
  return { dialogs, scripts, ...found };
}

const baseline = new Map<string, string[]>();
const templateOf = (path: string) => (path.startsWith('/service/') ? '/service/*' : path);

test('before: the policies’ texts are recorded, to be put back at the end', async ({ page }) => {
  for (const kind of POLICY_KINDS) originalPolicies.set(kind, await policyHtmlIn(page, kind));
});

test('before: the public pages’ own scripts are recorded', async ({ browser, request }) => {
  const services = await (await request.get('/services')).text();
  const anyService = /href="(\/service\/[^"]+)"/.exec(services)?.[1];
  expect(anyService).toBeTruthy();
  for (const path of ['/', '/services', anyService!, '/privacy', '/terms']) {
    const { scripts } = await inspect(browser, path);
    baseline.set(templateOf(path), scripts);
  }
});

test('an admin writes the privacy policy with the visual editor; /privacy follows at once, as previewed', async ({ page, browser }) => {
  const marker = `Your data at Studio ${Date.now()}`;
  // Visited first, so the page is in the route cache when the save must drop it.
  expect(await visitorHtml(browser, '/privacy', '.prose-content')).not.toContain(marker);

  await gotoHydrated(page, '/admin/content/privacy');
  const field = page.locator('[data-rich-text]');
  const tool = (name: string) => field.getByRole('toolbar').getByRole('button', { name, exact: true });
  const text = field.locator('.ProseMirror');
  await text.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await tool('Paragraph').click(); // whatever block was left, so the heading button below turns it into one

  await tool('H2 heading').click();
  await expect(tool('H2 heading')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type(marker);
  await page.keyboard.press('Enter');
  await page.keyboard.type('We keep ');
  await tool('Bold').click();
  await page.keyboard.type('only what we need');
  await tool('Bold').click();
  await page.keyboard.type(':');
  await page.keyboard.press('Enter');
  await tool('Bulleted list').click();
  await page.keyboard.type('your name');
  await page.keyboard.press('Enter');
  await page.keyboard.type('your email address');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // an empty item ends the list
  await page.keyboard.type('Questions? ');
  await tool('Link').click();
  const dialog = page.getByRole('dialog', { name: 'Add link' });
  await dialog.getByLabel('Address').fill('javascript:alert(1)');
  await dialog.getByLabel('Text to show').fill('Write to us');
  await dialog.getByRole('button', { name: 'Add link' }).click();
  await expect(dialog.getByText(/Links to javascript: addresses are not allowed/)).toBeVisible();
  await dialog.getByLabel('Address').fill('hello@example.com');
  await dialog.getByRole('button', { name: 'Add link' }).click();
  await expect(dialog).toBeHidden();

  await field.getByRole('tab', { name: 'Preview' }).click();
  const preview = field.getByTestId('rich-text-preview');
  await expect(preview.getByRole('heading', { level: 2, name: marker })).toBeVisible();
  const previewed = await preview.innerHTML();
  expect(previewed).toBe(
    `<h2>${marker}</h2><p>We keep <strong>only what we need</strong>:</p><ul><li><p>your name</p></li><li><p>your email address</p></li></ul>` +
      '<p>Questions? <a href="mailto:hello@example.com">Write to us</a></p>',
  );

  await page.keyboard.press('Control+s');
  await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');

  // The visitor's very next request shows it: the same bytes the admin previewed.
  expect(await visitorHtml(browser, '/privacy', '.prose-content')).toBe(previewed);
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await context.newPage();
  await visitor.goto('/privacy');
  await expect(visitor.getByRole('heading', { level: 2, name: marker })).toBeVisible();
  await expect(visitor.locator('.prose-content strong')).toHaveText('only what we need');
  await expect(visitor.locator('.prose-content ul > li')).toHaveText(['your name', 'your email address']);
  await expect(visitor.getByRole('link', { name: 'Write to us' })).toHaveAttribute('href', 'mailto:hello@example.com');
  await context.close();
});

test('an admin types payloads into every field of a new service; its Preview shows them defused', async ({ page, baseURL }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await gotoHydrated(page, '/admin/services/new');
  await page.getByLabel('Name', { exact: true }).fill(NAME);
  await page.getByLabel('Short text').fill(SHORT_TEXT);
  await page.getByRole('button', { name: /add benefit/i }).click();
  await page.getByRole('textbox', { name: 'benefit 1', exact: true }).fill(BENEFIT);

  const description = page.locator('[data-rich-text]');
  await description.getByRole('tab', { name: 'HTML' }).click();
  await description.getByRole('textbox', { name: 'Description HTML' }).fill(RICH_PAYLOAD);
  await description.getByRole('tab', { name: 'Preview' }).click();
  const preview = description.getByTestId('rich-text-preview');
  await expect(preview).toContainText('Safe words stay.');
  expect(await preview.evaluate((el) => el.querySelectorAll('script, svg, math, iframe, style, form, [onerror], [onload], [style]').length)).toBe(0);
  // The Write view shows the same text in the visual editor without running it either.
  await description.getByRole('tab', { name: 'Write' }).click();
  await expect(description.locator('.ProseMirror')).toContainText('Safe words stay.');

  await page.getByRole('button', { name: 'Create service' }).click();
  await page.waitForURL(/\/admin\/services\/[^/?]+\?notice=created/);
  serviceId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(NAME);
  expect(dialogs).toEqual([]);

  // First in the list, so the landing page's service cards show it too.
  const order = [...(await (await page.request.get('/services')).text()).matchAll(/href="\/service\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
  const ids = [serviceId, ...new Set(order.filter((id) => id !== serviceId))];
  const reorder = await page.request.post('/_actions/admin.services.reorder', { headers: { origin: baseURL! }, data: { ids } });
  expect(reorder.status()).toBe(200);
});

test('an admin puts the payloads into both policy pages through their editors', async ({ page }) => {
  for (const kind of POLICY_KINDS) await savePolicyText(page, kind, `<h2>${policyMarker(kind)}</h2>${RICH_PAYLOAD}`);
});

for (const path of ['/service/{id}', '/services', '/', '/privacy', '/terms']) {
  test(`a visitor opening ${path} runs none of it`, async ({ browser }) => {
    const url = path.replace('{id}', encodeURIComponent(serviceId));
    const found = await inspect(browser, url);
    expect(found.dialogs, 'dialogs').toEqual([]);
    expect(found.pwned, 'window.__pwned').toBeUndefined();
    expect(found.cspViolations, 'CSP violations').toEqual([]);
    expect(found.handlers, 'event handler attributes').toEqual([]);
    expect(found.badUrls, 'javascript:/data: addresses').toEqual([]);
    expect(found.foreignElements, 'script-capable elements in the content').toEqual([]);
    expect(found.jsonLdBroken, 'JSON-LD that no longer parses').toBe(0);
    expect(found.scripts, 'scripts other than the site’s own').toEqual(baseline.get(templateOf(url)));
  });
}

test('plain text fields show the markup as text; the rich text keeps its safe words', async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(`/service/${encodeURIComponent(serviceId)}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(NAME);
  await expect(page.getByRole('list', { name: /^Benefits of / })).toContainText(BENEFIT);
  // The short text is shown stripped of markup (seed: cards and leads show it as plain text).
  await expect(page.getByText('Short text here', { exact: true }).first()).toBeVisible();
  await expect(page.locator('.prose-content')).toContainText('Safe words stay.');
  await expect(page.locator('.prose-content a').first()).not.toHaveAttribute('href', /.*/);

  for (const path of ['/services', '/']) {
    await page.goto(path);
    await expect(page.getByText(NAME, { exact: true }).first()).toBeVisible();
    await expect(page.getByText(BENEFIT, { exact: true }).first()).toBeVisible();
  }
  for (const kind of POLICY_KINDS) {
    await page.goto(`/${kind}`);
    await expect(page.getByRole('heading', { level: 2, name: policyMarker(kind) })).toBeVisible();
    await expect(page.locator('.prose-content')).toContainText('Safe words stay.');
  }
  await context.close();
});

test('the Preview is byte for byte what the public page renders', async ({ page, browser }) => {
  await gotoHydrated(page, `/admin/services/${encodeURIComponent(serviceId)}`);
  const field = page.locator('[data-rich-text]');
  await field.getByRole('tab', { name: 'Preview' }).click();
  const preview = await field.getByTestId('rich-text-preview').innerHTML();

  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await context.newPage();
  await visitor.goto(`/service/${encodeURIComponent(serviceId)}`);
  expect(await visitor.locator('.prose-content').innerHTML()).toBe(preview);

  for (const kind of POLICY_KINDS) {
    await gotoHydrated(page, `/admin/content/${kind}`);
    await page.locator('[data-rich-text]').getByRole('tab', { name: 'Preview' }).click();
    const policyPreview = await page.getByTestId('rich-text-preview').innerHTML();
    await visitor.goto(`/${kind}`);
    expect(await visitor.locator('.prose-content').innerHTML()).toBe(policyPreview);
  }
  await context.close();
});

test('“Restore the default text” puts the built-in policies back for visitors', async ({ page }) => {
  for (const kind of POLICY_KINDS) {
    await gotoHydrated(page, `/admin/content/${kind}`);
    await page.getByRole('button', { name: 'Restore the default text' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Replace the text' }).click();
    await page.keyboard.press('Control+s');
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
    await expect(page.getByTestId('policy-default')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Restore the default text' })).toHaveCount(0);
    const html = await (await page.request.get(`/${kind}`, { headers: { cookie: '' } })).text();
    expect(html).not.toContain(policyMarker(kind));
    expect(html).toContain(kind === 'privacy' ? 'What we collect' : 'Acceptable use');
  }
});

test.afterAll(async ({ browser, baseURL }) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  try {
    const page = await context.newPage();
    for (const [kind, html] of originalPolicies) await savePolicyText(page, kind, html);
    if (serviceId) await context.request.post('/_actions/admin.services.remove', { headers: { origin: baseURL! }, data: { id: serviceId } });
  } finally {
    await context.close();
  }
});
