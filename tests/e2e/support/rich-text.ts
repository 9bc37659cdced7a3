/** The admin's rich-text fields (RichTextField): HTML typed through the field's own HTML view. */
import type { Page } from '@playwright/test';

/** The rich-text field labelled `label` on the page (its tab list is named by the label). */
export const richTextField = (page: Page, label: string) =>
  page.locator('[data-rich-text]').filter({ has: page.getByRole('tablist', { name: label, exact: true }) });

/** Replaces the field's content with `html`, as an admin pasting markup into its HTML view would. */
export async function fillRichHtml(page: Page, label: string, html: string) {
  const field = richTextField(page, label);
  await field.getByRole('tab', { name: 'HTML' }).click();
  await field.getByRole('textbox', { name: `${label} HTML`, exact: true }).fill(html);
  await field.getByRole('tab', { name: 'Write' }).click();
}
