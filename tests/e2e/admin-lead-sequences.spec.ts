/**
 * The follow-up sequences' editor (/admin/leads/sequences), in Chromium: the three triggers' sequences are
 * listed; what the server refuses (turning on a sequence without steps, a step's day not after the one
 * before, an unknown placeholder, quiet hours that end when they start) is named beside its field; a good
 * save is there after a reload. axe finds nothing at phone and desktop widths, errors shown. Each test puts
 * back what it changed (an active sequence would write to the leads other specs make).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from './support/fixtures';
import { callAction } from './support/admin-actions';
import { ADMIN_STATE, gotoHydrated, islandsHydrated } from './support/accounts';

test.use({ storageState: ADMIN_STATE });

const PATH = '/admin/leads/sequences';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface Sequence {
  trigger: string;
  active: boolean;
  steps: { delayDays: number; subject: string; body: string }[];
}

/** A sequence as its card shows it. */
async function readCard(card: Locator): Promise<Sequence> {
  const steps: Sequence['steps'] = [];
  for (const step of await card.locator('[data-sequence-step]').all()) {
    steps.push({ delayDays: Number(await step.getByLabel('Send on day').inputValue()), subject: await step.getByLabel('Subject').inputValue(), body: await step.getByLabel('Message').inputValue() });
  }
  return { trigger: (await card.getAttribute('data-sequence'))!, active: await card.getByRole('switch').isChecked(), steps };
}

async function axeAtBothWidths(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator('details:not([open])').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
    const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    expect(violations.map((v) => `${width}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
}

let restore: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await restore?.();
  restore = undefined;
});

test('the three sequences are listed; refused saves are explained beside the field, a good save stays after a reload', async ({ page, request, baseURL }) => {
  await gotoHydrated(page, PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Follow-up sequences' })).toBeVisible();
  const cards = page.locator('form[data-sequence]');
  await expect(cards).toHaveCount(3);
  expect(await cards.evaluateAll((all) => all.map((f) => f.getAttribute('data-sequence')))).toEqual(['audit-requested', 'report-sent', 'chat-lead']);
  for (const name of ['After an audit request', 'After the audit report is sent', 'After a chat lead']) await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  // The placeholders say that what a person typed waits for their address to be confirmed (decision 057).
  const placeholders = page.locator('form[data-sequence="chat-lead"] details').filter({ hasText: 'Placeholders you can use' });
  await placeholders.getByText('Placeholders you can use').click();
  await expect(placeholders.locator('[data-confirmation-note]')).toContainText('uses the name and business a person typed only once their address is confirmed');
  await expect(placeholders).toContainText('Their first name once their address is confirmed (else “there”)');
  await axeAtBothWidths(page, 'sequences');

  const card = page.locator('form[data-sequence="chat-lead"]');
  const before = await readCard(card);
  restore = async () => {
    const put = await callAction(request, baseURL!, 'admin.leads.saveSequence', before);
    expect(put.status, JSON.stringify(put.error)).toBe(200);
  };
  const status = card.getByRole('status');
  const save = card.getByRole('button', { name: /^Save/ });
  const toggle = card.getByRole('switch');

  // On without a step: refused, the reason beside the switch.
  while ((await card.locator('[data-sequence-step]').count()) > 0) await card.getByRole('button', { name: /^Remove step/ }).first().click();
  await toggle.check();
  await expect(card.getByText('Sending', { exact: true })).toBeVisible();
  await save.click();
  await expect(status).toContainText('Not saved');
  await expect(toggle).toHaveAttribute('aria-invalid', 'true');
  // The error, and that the switch only takes effect when saved.
  await expect(toggle).toHaveAccessibleDescription('Add a step before turning the sequence on Starts sending when you save.');

  // Two steps on the same day, an unknown placeholder: each named beside its field.
  await card.getByRole('button', { name: 'Add a step' }).click();
  await card.getByRole('button', { name: 'Add a step' }).click();
  const [first, second] = [card.locator('[data-sequence-step="1"]'), card.locator('[data-sequence-step="2"]')];
  await first.getByLabel('Send on day').fill('1');
  await first.getByLabel('Subject').fill('Hello {{foo}}');
  await first.getByLabel('Message').fill('Hi {{first_name}},\n\nThanks for the chat.\n\n{{site_name}}');
  await second.getByLabel('Send on day').fill('1');
  await second.getByLabel('Subject').fill('Still there, {{first_name}}?');
  await second.getByLabel('Message').fill('Book a call: {{booking_link}}');
  await save.click();
  await expect(status).toContainText('2 fields need correcting');
  await expect(first.getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true');
  await expect(first.getByLabel('Subject')).toHaveAccessibleDescription(/^Unknown placeholder \{\{foo\}\}: use /);
  await expect(second.getByLabel('Send on day')).toHaveAttribute('aria-invalid', 'true');
  await expect(second.getByLabel('Send on day')).toHaveAccessibleDescription('Send this step after day 1 (the step before)');
  await expect(first.getByLabel('Send on day')).not.toHaveAttribute('aria-invalid', 'true');
  await axeAtBothWidths(page, 'sequences-refused');

  // At most five steps: the button says why it is off.
  for (let i = 2; i < 5; i++) await card.getByRole('button', { name: 'Add a step' }).click();
  await expect(card.getByRole('button', { name: 'Add a step' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Add a step' })).toHaveAccessibleDescription(/at most 5 steps/);
  for (let i = 5; i > 2; i--) await card.getByRole('button', { name: `Remove step ${i}` }).click();

  // Corrected: saved, and still so after a reload.
  await first.getByLabel('Subject').fill('Hello {{first_name}}');
  await second.getByLabel('Send on day').fill('4');
  await save.click();
  await expect(status).toHaveText('Saved: sending.');
  await page.reload();
  await islandsHydrated(page);
  expect(await readCard(card)).toEqual({
    trigger: 'chat-lead',
    active: true,
    steps: [
      { delayDays: 1, subject: 'Hello {{first_name}}', body: 'Hi {{first_name}},\n\nThanks for the chat.\n\n{{site_name}}' },
      { delayDays: 4, subject: 'Still there, {{first_name}}?', body: 'Book a call: {{booking_link}}' },
    ],
  });
  await expect(card.getByText('Sending', { exact: true })).toBeVisible();
});

test('the quiet hours: the same start and end is refused beside the end, a change is saved', async ({ page, request, baseURL }) => {
  await gotoHydrated(page, PATH);
  const form = page.locator('form[data-quiet-hours]');
  const start = form.getByLabel('No follow-up emails between');
  const end = form.getByLabel(/^and/);
  const before = { start: await start.inputValue(), end: await end.inputValue() };
  restore = async () => {
    const put = await callAction(request, baseURL!, 'admin.leads.saveQuietHours', before);
    expect(put.status, JSON.stringify(put.error)).toBe(200);
  };
  await expect(form).toContainText(/in the site’s time zone \([^)]+/);

  await start.fill('21:30');
  await end.fill('21:30');
  await form.getByRole('button', { name: /^Save/ }).click();
  await expect(form.getByRole('status')).toContainText('Not saved');
  await expect(end).toHaveAttribute('aria-invalid', 'true');
  await expect(end).toHaveAccessibleDescription(/^End the quiet hours at another time than they start/);
  await expect(start).not.toHaveAttribute('aria-invalid', 'true');
  await axeAtBothWidths(page, 'quiet-hours-refused');

  await end.fill('07:15');
  await form.getByRole('button', { name: /^Save/ }).click();
  await expect(form.getByRole('status')).toHaveText('Saved: quiet from 21:30 to 07:15.');
  await page.reload();
  await islandsHydrated(page);
  await expect(start).toHaveValue('21:30');
  await expect(end).toHaveValue('07:15');
});
