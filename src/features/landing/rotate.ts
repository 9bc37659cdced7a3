/**
 * Rotating phrases (hero, what-we-build): every ROTATION_INTERVAL_MS one phrase of a `[data-rotator]` is
 * shown. All phrases sit stacked in one grid cell, so the box is always as big as the longest one and a
 * change never shifts the layout. Under `prefers-reduced-motion: reduce` the first phrase stays, static.
 */
import { ROTATION_INTERVAL_MS } from '../../shared/constants';

export function nextIndex(current: number, count: number): number {
  return count > 0 ? (current + 1) % count : 0;
}

function show(items: readonly Element[], index: number) {
  items.forEach((item, i) => item.toggleAttribute('data-active', i === index));
}

export function initRotators(root: ParentNode = document) {
  const rotators = [...root.querySelectorAll('[data-rotator]')]
    .map((el) => [...el.querySelectorAll('[data-rotator-item]')])
    .filter((items) => items.length > 1);
  if (rotators.length === 0) return;

  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)');
  const positions = rotators.map(() => 0);
  let timer: number | undefined;

  const tick = () =>
    rotators.forEach((items, r) => {
      positions[r] = nextIndex(positions[r]!, items.length);
      show(items, positions[r]!);
    });
  const update = () => {
    window.clearInterval(timer);
    timer = undefined;
    if (reduce.matches) {
      rotators.forEach((items, r) => {
        positions[r] = 0;
        show(items, 0);
      });
      return;
    }
    // No work while the tab is in the background.
    if (!document.hidden) timer = window.setInterval(tick, ROTATION_INTERVAL_MS);
  };
  reduce.addEventListener('change', update);
  document.addEventListener('visibilitychange', update);
  update();
}
