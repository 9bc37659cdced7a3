/** Texts the landing page derives from its data (pure, unit-tested). */
import { LANDING_PREVIEW_COUNT } from '../../shared/constants';

const VIEW_ALL = {
  services: { href: '/services', noun: 'Services' },
  packages: { href: '/packages', noun: 'Packages' },
  demos: { href: '/demos', noun: 'Demos' },
  articles: { href: '/articles', noun: 'Articles' },
} as const;

export type PreviewKind = keyof typeof VIEW_ALL;

/** Seed: a "View All" link showing the total, only when there are more than the 4 previewed. */
export function viewAllLink(kind: PreviewKind, total: number): { href: string; label: string } | null {
  if (total <= LANDING_PREVIEW_COUNT) return null;
  const { href, noun } = VIEW_ALL[kind];
  return { href, label: `View All ${noun} (${total})` };
}

/** "a", "a and b", "a, b and c": the full sentence screen readers get instead of a rotating word. */
export function listSentence(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The landing page's <title> is one of the page texts /admin/seo previews: defined with them. */
export { landingTitle } from '../../shared/page-seo';
