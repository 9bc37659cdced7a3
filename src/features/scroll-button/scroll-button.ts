/**
 * The floating scroll button: measures the stops on the page, asks plan.ts where to go, and keeps the
 * button's label and arrow in step with what the next press will do.
 */
import { MOBILE_BREAKPOINT_PX } from '../../shared/constants';
import { orderStops, planScroll, tierStops, type ScrollPlan, type Stop } from './plan';

/** Extra room under the sticky navbar so a section's heading is not flush against it. */
const GAP_BELOW_NAVBAR_PX = 8;
/** A page that scrolls less than this has nowhere to go: the button stays hidden. */
const MIN_SCROLLABLE_PX = 80;

function labelOf(el: Element, fallback: string): string {
  const own = el.getAttribute('data-scroll-label');
  if (own) return own;
  const heading = el.querySelector('h1, h2, h3');
  return heading?.textContent?.replace(/\s+/g, ' ').trim() || fallback;
}

function measure(button: HTMLButtonElement, desktop: MediaQueryList) {
  const header = document.querySelector('[data-site-header]');
  const offset = (header?.getBoundingClientRect().height ?? 0) + GAP_BELOW_NAVBAR_PX;
  const yOf = (el: Element) => el.getBoundingClientRect().top + window.scrollY - offset;
  // Hidden blocks (e.g. a closed menu) have no box and are no place to scroll to.
  const visible = (el: Element) => el.getClientRects().length > 0 && !button.contains(el);

  const stops: Stop[] = [...document.querySelectorAll('[data-scroll-stop]')]
    .filter(visible)
    .map((el) => ({ y: yOf(el), label: labelOf(el, 'the next section') }));

  const pricingEl = document.querySelector('[data-pricing-section]');
  for (const section of document.querySelectorAll('[data-pricing-section]')) {
    // A card may carry the attribute on itself and on its list item: count each tier once.
    const tiers = [...section.querySelectorAll('[data-pricing-tier]')]
      .filter((el) => visible(el) && !el.parentElement?.closest('[data-pricing-tier]'))
      .map((el) => ({ y: yOf(el), label: labelOf(el, 'the next pricing tier') }));
    stops.push(...tierStops(tiers, desktop.matches));
  }
  return {
    stops: orderStops(stops),
    pricing: pricingEl && visible(pricingEl) ? { y: yOf(pricingEl), label: 'pricing' } : null,
    viewportHeight: window.innerHeight,
    documentHeight: document.documentElement.scrollHeight,
  };
}

export function initScrollButton(button: HTMLButtonElement) {
  const desktop = window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`);
  // While a smooth scroll is under way, the next press continues from where it will land.
  let pending: { y: number; timer: number } | null = null;
  let frame = 0;

  const plan = (): ScrollPlan => planScroll({ ...measure(button, desktop), scrollY: pending?.y ?? window.scrollY });

  const render = () => {
    frame = 0;
    const scrollable = document.documentElement.scrollHeight - window.innerHeight >= MIN_SCROLLABLE_PX;
    button.hidden = !scrollable;
    if (!scrollable) return;
    const next = plan();
    button.setAttribute('aria-label', next.label);
    button.title = next.label;
    button.dataset.direction = next.direction;
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(render);
  };
  const settle = () => {
    if (pending) window.clearTimeout(pending.timer);
    pending = null;
    schedule();
  };

  button.addEventListener('click', () => {
    const next = plan();
    if (pending) window.clearTimeout(pending.timer);
    // 'scrollend' ends the pending state; the timer covers browsers without it and scrolls cut short.
    pending = { y: next.y, timer: window.setTimeout(settle, 1200) };
    window.scrollTo({ top: next.y });
    schedule();
  });
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('scrollend', settle);
  window.addEventListener('resize', schedule);
  desktop.addEventListener('change', schedule);
  // Late images and fonts move the stops; re-measure once everything has loaded.
  window.addEventListener('load', schedule);
  render();
}
