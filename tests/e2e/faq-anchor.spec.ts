import { expect, test } from './support/fixtures';
import { DEFAULT_FAQS } from '../../src/shared/default-faqs';
import { faqAnchorHref } from '../../src/shared/faq-anchor';

// The chat links its FAQ answers to /#faq-<id>: that address opens the very item (the demo seed stores no
// FAQ, so the landing page shows the built-in ones).
test('an FAQ address opens its item, on load and when the hash changes', async ({ page }) => {
  const setup = DEFAULT_FAQS[2]!;
  const robotic = DEFAULT_FAQS[4]!;
  await page.goto(faqAnchorHref(setup.id));
  const setupItem = page.locator(`details#faq-${setup.id}`);
  await expect(setupItem).toHaveAttribute('open', '');
  await expect(setupItem.locator('summary')).toHaveText(setup.question);
  await expect(setupItem).toBeInViewport();

  await page.evaluate((hash) => (location.hash = hash), `faq-${robotic.id}`);
  await expect(page.locator(`details#faq-${robotic.id}`)).toHaveAttribute('open', '');
  // The accordion stays exclusive: opening one closed the other.
  await expect(setupItem).not.toHaveAttribute('open', '');
});

test('an unknown or malformed FAQ address leaves the accordion closed', async ({ page }) => {
  await page.goto('/#faq-no-such-question');
  await page.goto('/#faq-%E0%A4%A');
  await expect(page.locator('#faqs details[open]')).toHaveCount(0);
});
