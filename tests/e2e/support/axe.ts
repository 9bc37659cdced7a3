/**
 * axe-core on a page as it rests. Motion is paused while axe reads the page (prefers-reduced-motion, which
 * the site honours): text caught half-faded by an animation, such as the hero's rotating phrase, would
 * otherwise fail colour contrast at random. What the motion looks like is the landing spec's to test.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** axe's violations, each as "id: targets", optionally only inside `include` (a CSS selector). */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
    const { violations } = await (include ? builder.include(include) : builder).analyze();
    return violations.map((v) => `${v.id} (${v.impact}) — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
}
