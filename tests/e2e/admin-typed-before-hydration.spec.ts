/**
 * An admin on a slow connection edits before the editor's island is live (its module held back here): the
 * island's first renders take nothing back, a textarea that already had text included (React's hydration
 * puts a textarea's served text back), and Save sends what was typed (issue 35); a select changed early is
 * saved at once like one changed later. The public forms are covered by typed-before-hydration.spec.ts.
 */
import { expect, test } from './support/fixtures';
import { ADMIN_STATE, freshClientIp } from './support/accounts';
import { callAction } from './support/admin-actions';
import { gotoWithIslandsHeld } from './support/islands';

test.use({ storageState: ADMIN_STATE });

// The service a test makes is removed afterwards: later specs count the demo content.
const made: string[] = [];
test.afterEach(async ({ request, baseURL }) => {
  for (const id of made.splice(0)) expect((await callAction(request, baseURL!, 'admin.services.remove', { id })).status, `removing ${id}`).toBe(200);
});

test('service editor: name, short text and price typed before the editor is live are kept and saved', async ({ page, request, baseURL }) => {
  const name = `Early edit ${Date.now().toString(36)}`;
  const created = await callAction<{ id: string }>(request, baseURL!, 'admin.services.create', { fields: { name, shortText: 'The text the server sent.', price: 100 } });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const id = created.data!.id;
  made.push(id);

  const islands = await gotoWithIslandsHeld(page, `/admin/services/${id}`);
  const typedEarly = { Name: `${name} renamed`, 'Short text': 'Typed while the editor was loading.' };
  for (const [label, value] of Object.entries(typedEarly)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByLabel(/^Price/).fill('250');
  await islands.release();

  // An edit in the live editor re-renders it: the earlier ones stay, and the editor counts them as changes.
  await page.getByRole('button', { name: 'Add benefit' }).click();
  await page.getByRole('textbox', { name: 'benefit 1' }).fill('Answers while you sleep');
  for (const [label, value] of Object.entries(typedEarly)) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
  await expect(page.getByLabel(/^Price/)).toHaveValue('250');
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/_actions/admin.services.update');
  await page.getByRole('button', { name: /^Save/ }).click();
  expect((await sent).postDataJSON()).toMatchObject({ id, fields: { name: typedEarly.Name, shortText: typedEarly['Short text'], price: 250, benefits: ['Answers while you sleep'] } });
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect.poll(async () => (await page.request.get(`/service/${id}`)).text()).toContain('Typed while the editor was loading.');
});

test('audit request panel: a stage chosen and a note typed before the panel is live are saved', async ({ page, request, baseURL }) => {
  const business = `Early Status Clinic ${Date.now().toString(36)}`;
  const sent = await request.post('/api/audit-requests', {
    // Sent by a visitor: the admin's own request would be the team's, no lead (decision 032).
    headers: { origin: baseURL!, accept: 'application/json', 'x-real-ip': freshClientIp(), cookie: '' },
    form: { fullName: 'Ada Early', email: `early-status-${Date.now().toString(36)}@example.com`, businessName: business, businessType: 'other', goals: 'more-leads', consent: 'on' },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const list = await (await page.request.get(`/admin/audit?q=${encodeURIComponent(business)}`)).text();
  const id = /data-audit-row="([^"]+)"/.exec(list)?.[1];
  expect(id, 'the request is listed').toBeTruthy();

  const islands = await gotoWithIslandsHeld(page, `/admin/audit/${id}`);
  await page.getByLabel('Stage').selectOption('contacted');
  const note = `Called before the page was ready ${Date.now().toString(36)}`;
  await page.getByLabel('New note').fill(note);
  await islands.release();

  await expect(page.getByText('Stage: Contacted.')).toBeVisible();
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByTestId('audit-note').filter({ hasText: note })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Stage')).toHaveValue('contacted');
  await expect(page.getByTestId('audit-note').filter({ hasText: note })).toBeVisible();
});
