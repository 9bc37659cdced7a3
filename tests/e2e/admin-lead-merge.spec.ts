/**
 * Merging two people (issue 39), as the admin in Chromium: a visitor who requested an audit with one
 * address and left another in the chat is two rows of the leads list; from the first one's page the admin
 * types the other address, reads what will move, merges; one row is left, the page says "Also known as"
 * with the other address and its timeline holds the chat; a wrong address is told beside the field. axe
 * finds nothing on the page with the section.
 */
import { expect, test } from './support/fixtures';
import { axeViolations } from './support/axe';
import { ADMIN_STATE, freshClientIp, gotoHydrated } from './support/accounts';

test.use({ storageState: ADMIN_STATE });

test('the admin merges the same person’s two addresses from their page', async ({ page, playwright, baseURL }) => {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const keep = `mira-${id}@example.com`;
  const other = `mira.work-${id}@example.com`;
  const visitor = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const audit = await visitor.post('/api/audit-requests', {
    headers: { origin: baseURL!, 'x-real-ip': freshClientIp() },
    data: { fullName: `Mira Merge ${id}`, email: keep, businessName: `Mira Studio ${id}`, website: '', businessType: 'coach', goals: ['more-leads'], consent: true },
  });
  expect(audit.status(), await audit.text()).toBe(200);
  const visitorId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const chat = await visitor.post('/api/chat/contact', { headers: { origin: baseURL!, 'x-chat-visitor': visitorId, 'x-real-ip': freshClientIp() }, data: { name: `Mira at work ${id}`, email: other } });
  expect(chat.status(), await chat.text()).toBe(200);
  await visitor.dispose();

  await page.goto(`/admin/leads?q=${id}`);
  await expect(page.locator('tr[data-person-row]')).toHaveCount(2);
  await gotoHydrated(page, `/admin/leads/${Buffer.from(keep).toString('base64url')}`);
  const section = page.locator('[data-merge-person]');
  const field = section.getByLabel('Their other address');

  // A wrong address is told beside the field, nothing moves.
  await field.fill(`nobody-${id}@example.com`);
  await section.getByRole('button', { name: 'Merge…' }).click();
  await expect(section.getByText(`No lead has the address nobody-${id}@example.com.`)).toBeVisible();

  await field.fill(other.toUpperCase());
  await section.getByRole('button', { name: 'Merge…' }).click();
  const dialog = page.getByRole('dialog', { name: `Merge ${other.toUpperCase()} into Mira Merge ${id}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('listitem').filter({ hasText: /^1 chat conversation$/ })).toHaveCount(1);
  expect(await axeViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Merge' }).click();

  await expect(page.getByText('Merged: the other address is now this person’s too.')).toBeVisible();
  await expect(page.locator('[data-person-aliases]')).toHaveText(other);
  await expect(page.locator('[data-timeline-entry="chat-started"]')).toHaveCount(1);
  await expect(page.locator('[data-person-count="chat-lead"]')).toContainText('1');
  expect(await axeViolations(page)).toEqual([]);
  await page.goto(`/admin/leads?q=${id}`);
  await expect(page.locator('tr[data-person-row]')).toHaveCount(1);
  await expect(page.locator(`tr[data-person-row="${keep}"]`)).toHaveCount(1);
});
