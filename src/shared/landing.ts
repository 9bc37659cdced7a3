import { z } from './zod';

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
  cta: 'Final call-to-action',
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

// ---------------------------------------------------------------------------------------------------------
// The layout an admin edits (/admin/landing-page-config): every block once, in order, some hidden.

export interface LandingLayout {
  /** All ten blocks, each once, in page order. */
  order: LandingBlock[];
  /** The blocks left out of the page (skipped like unknown names). */
  hidden: LandingBlock[];
}

export const DEFAULT_LANDING_LAYOUT: LandingLayout = { order: [...LANDING_BLOCKS], hidden: [] };

/**
 * The editor's view of a stored config: the stored order with unknown names dropped; a block the stored
 * order leaves out is not on the page today, so the editor lists it at the end, hidden.
 */
export function layoutFromConfig(doc: unknown): LandingLayout {
  const config = (doc ?? undefined) as { blockOrder?: unknown; hidden?: unknown } | undefined;
  const stored = Array.isArray(config?.blockOrder) ? resolveBlockOrder(config.blockOrder) : [...LANDING_BLOCKS];
  const hiddenNames = Array.isArray(config?.hidden) ? config.hidden : [];
  const missing = LANDING_BLOCKS.filter((b) => !stored.includes(b));
  const hidden = LANDING_BLOCKS.filter((b) => hiddenNames.includes(b) || missing.includes(b));
  return { order: [...stored, ...missing], hidden };
}

/** The stored document for a layout ({ blockOrder, hidden }, as the seed's config and the content file have it). */
export function configFromLayout(layout: LandingLayout): { blockOrder: LandingBlock[]; hidden: LandingBlock[] } {
  return { blockOrder: [...layout.order], hidden: LANDING_BLOCKS.filter((b) => layout.hidden.includes(b)) };
}

/** The blocks a layout shows, in order. */
export const visibleBlocks = (layout: LandingLayout): LandingBlock[] => layout.order.filter((b) => !layout.hidden.includes(b));

const blockName = z.enum(LANDING_BLOCKS, { error: 'is not a landing page block' });
const unique = (list: readonly string[]) => new Set(list).size === list.length;

export const landingLayoutSchema = z.strictObject({
  order: z
    .array(blockName)
    .refine((order) => order.length === LANDING_BLOCKS.length && unique(order), `must list each of the ${LANDING_BLOCKS.length} blocks once`),
  hidden: z.array(blockName).max(LANDING_BLOCKS.length).refine(unique, 'must name each block at most once'),
});

// ---------------------------------------------------------------------------------------------------------
// The live preview: the landing page with an unsaved layout, for an admin only (see pages/preview.ts).

export const LAYOUT_PARAM = 'layout';

/** `?layout=` for the blocks to show, in order ("hero,services"); empty when every block is hidden. */
export const layoutParam = (blocks: readonly LandingBlock[]) => blocks.join(',');

/** The blocks a `?layout=` value asks for; unknown names skipped like in a stored order. */
export const blocksFromLayoutParam = (value: string): LandingBlock[] => resolveBlockOrder(value.split(',').map((b) => b.trim()));
