/**
 * Where the floating scroll button goes next (seed: "moves through sections and through pricing tiers
 * (3 per row on desktop, one at a time on mobile). At the page bottom it scrolls back up to the pricing
 * section"). Pure: the browser script measures the page and this decides.
 */
import { PRICING_TIERS_PER_ROW } from '../../shared/constants';

export interface Stop {
  /** Scroll position (px from the top of the document) that brings this stop under the navbar. */
  y: number;
  /** What the stop is, for the button's label ("Packages", "Growth"). */
  label: string;
}

export interface ScrollPlan {
  y: number;
  direction: 'down' | 'up';
  /** The button's accessible name: where a press takes you. */
  label: string;
}

/** Stops closer than this to the previous one are dropped: a press should always move the view noticeably. */
export const MIN_STOP_GAP_PX = 160;
/** A stop this close to the bottom is the bottom: no press should move the view by a few pixels only. */
export const END_SNAP_PX = 48;
/** Sub-pixel rounding and smooth-scroll landings are never exact. */
const TOLERANCE_PX = 4;

/** One stop per row of pricing tiers: 3 per row on desktop, every tier on mobile. Tiers in page order. */
export function tierStops(tiers: readonly Stop[], desktop: boolean, perRow = PRICING_TIERS_PER_ROW): Stop[] {
  const step = desktop ? perRow : 1;
  const rows: Stop[] = [];
  for (let i = 0; i < tiers.length; i += step) {
    const row = tiers.slice(i, i + step);
    rows.push({ y: Math.min(...row.map((t) => t.y)), label: row.map((t) => t.label).join(', ') });
  }
  return rows;
}

/** Sorted by position, with stops too close to the one before dropped. */
export function orderStops(stops: readonly Stop[], minGap = MIN_STOP_GAP_PX): Stop[] {
  const sorted = [...stops].sort((a, b) => a.y - b.y);
  const kept: Stop[] = [];
  for (const stop of sorted) {
    const last = kept.at(-1);
    if (!last || stop.y - last.y >= minGap) kept.push(stop);
  }
  return kept;
}

export function planScroll(input: {
  stops: readonly Stop[];
  /** Where the view is, or where a scroll already under way will land. */
  scrollY: number;
  viewportHeight: number;
  documentHeight: number;
  /** The pricing section, or null when the page has none. */
  pricing: Stop | null;
}): ScrollPlan {
  const maxScroll = Math.max(0, input.documentHeight - input.viewportHeight);
  const atBottom = input.scrollY >= maxScroll - TOLERANCE_PX;
  if (atBottom) {
    const pricingY = input.pricing ? Math.min(Math.max(0, input.pricing.y), maxScroll) : null;
    // Pricing at the very bottom would be a press that goes nowhere: go to the top instead.
    if (input.pricing && pricingY !== null && pricingY < input.scrollY - TOLERANCE_PX) {
      return { y: pricingY, direction: 'up', label: `Scroll back up to ${input.pricing.label}` };
    }
    return { y: 0, direction: 'up', label: 'Scroll back to the top' };
  }
  const reachable = input.stops.map((s) => ({ ...s, y: s.y >= maxScroll - END_SNAP_PX ? maxScroll : Math.max(0, s.y) }));
  const next = orderStops(reachable, 0).find(
    (s) => s.y > input.scrollY + TOLERANCE_PX,
  );
  // Below the last stop: one more press shows the end of the page, the next one goes back up.
  if (!next) return { y: maxScroll, direction: 'down', label: 'Scroll down to the end of the page' };
  return { y: next.y, direction: 'down', label: `Scroll down to ${next.label}` };
}
