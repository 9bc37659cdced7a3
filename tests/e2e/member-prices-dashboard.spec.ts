/** The member dashboard: welcome by name, profile edit through the Action, next steps, accessibility. */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './support/fixtures';
import { gotoHydrated, MEMBER_STATE, savedAccounts } from './support/accounts';

test.use({ storageState: MEMBER_STATE });

test('welcomes the member by first name and links to booking (new tab) and the free audit', async ({ page }) => {
  const { member } = savedAccounts();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${member.firstName}`);
  const book = page.getByRole('link', { name: /^Book a call/ }).first();
  await expect(book).toHaveAttribute('target', '_blank');
  await expect(book).toHaveAttribute('href', /^https?:\/\//);
  await expect(page.getByRole('link', { name: 'Request a free audit' }).first()).toHaveAttribute('href', '/free-audit');
});

test('edits the profile: field errors, trimmed values, blank removes, and the name updates', async ({ page }) => {
  const { member } = savedAccounts();
  // Typed before the form's island is live, the values would be reset by its first render.
  await gotoHydrated(page, '/dashboard');
  const form = page.locator('form').filter({ has: page.getByLabel('First name') });
  const save = form.getByRole('button', { name: 'Save profile' });

  await form.getByLabel('First name').fill('   ');
  await form.getByLabel('Website').fill('not a website');
  await save.click();
  await expect(form.getByText('First name is required')).toBeVisible();
  await expect(form.getByText('Please enter a valid website address')).toBeVisible();
  await expect(form.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('First name')).toBeFocused();

  await form.getByLabel('First name').fill('  Marta ');
  await form.getByLabel('Phone').fill(' +1 555 0100 ');
  await form.getByLabel('Website').fill('marta.example');
  await save.click();
  await expect(form.getByRole('status')).toHaveText('Profile saved.');
  await expect(form.getByLabel('Website')).toHaveValue('https://marta.example');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Marta');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Marta');
  await expect(form.getByLabel('Phone')).toHaveValue('+1 555 0100');

  // Blank removes the optional fields; the original name is restored for the other specs.
  await form.getByLabel('First name').fill(member.firstName);
  await form.getByLabel('Phone').fill('');
  await form.getByLabel('Website').fill('   ');
  await save.click();
  await expect(form.getByRole('status')).toHaveText('Profile saved.');
  await page.reload();
  await expect(form.getByLabel('Phone')).toHaveValue('');
  await expect(form.getByLabel('Website')).toHaveValue('');
});

for (const width of [390, 1280]) {
  test(`has no axe violations and no horizontal scroll at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/dashboard');
    await expect(page.locator('form button[type="submit"]')).toBeEnabled();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
