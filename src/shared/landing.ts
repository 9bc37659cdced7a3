/** Landing page block order (seed section 2 "Landing page"). */
export const LANDING_BLOCKS = [
  'hero',
  'what-we-build',
  'services',
  'packages',
  'demos',
  'articles',
  'testimonials',
  'faqs',
  'free-audit-cta',
  'cta',
] as const;

export type LandingBlock = (typeof LANDING_BLOCKS)[number];

export const LANDING_BLOCK_LABELS: Record<LandingBlock, string> = {
  hero: 'Hero',
  'what-we-build': 'What we build',
  services: 'Services',
  packages: 'Packages',
  demos: 'Demos',
  articles: 'Articles',
  testimonials: 'Testimonials',
  faqs: 'FAQ',
  'free-audit-cta': 'Free audit call-to-action',
  cta: 'Book a call call-to-action',
};

export function isLandingBlock(name: unknown): name is LandingBlock {
  return typeof name === 'string' && (LANDING_BLOCKS as readonly string[]).includes(name);
}

/**
 * The blocks to render: the stored order when there is one (default when missing or not a list),
 * unknown names and hidden blocks skipped, each block at most once.
 */
export function resolveBlockOrder(stored: unknown, hidden: readonly string[] = []): LandingBlock[] {
  const order = Array.isArray(stored) ? stored : LANDING_BLOCKS;
  const seen = new Set<string>();
  const result: LandingBlock[] = [];
  for (const name of order) {
    if (!isLandingBlock(name) || seen.has(name) || hidden.includes(name)) continue;
    seen.add(name);
    result.push(name);
  }
  return result;
}

/** The blocks a stored landing-page config document ({ blockOrder, hidden }, or nothing) asks for. */
export function blocksFromConfig(doc: unknown): LandingBlock[] {
  const config = (doc ?? undefined) as { blockOrder?: unknown; hidden?: unknown } | undefined;
  const hidden = Array.isArray(config?.hidden) ? config.hidden.filter((h): h is string => typeof h === 'string') : [];
  return resolveBlockOrder(config?.blockOrder, hidden);
}
