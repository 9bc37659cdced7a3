import { describe, expect, it } from 'vitest';
import { orderStops, planScroll, tierStops, type Stop } from '../../src/features/scroll-button/plan';

const tiers = (...ys: number[]): Stop[] => ys.map((y, i) => ({ y, label: `Tier ${i + 1}` }));

describe('pricing tier stops', () => {
  it('groups tiers 3 per row on desktop, stopping at the first of each row', () => {
    const rows = tierStops(tiers(1000, 1000, 1000, 1600, 1600), true);
    expect(rows).toEqual([
      { y: 1000, label: 'Tier 1, Tier 2, Tier 3' },
      { y: 1600, label: 'Tier 4, Tier 5' },
    ]);
  });
  it('stops at every tier on mobile', () => {
    expect(tierStops(tiers(1000, 1600, 2200), false).map((s) => s.y)).toEqual([1000, 1600, 2200]);
  });
});

describe('orderStops', () => {
  it('sorts by position and drops a stop too close to the previous one', () => {
    const stops = orderStops([
      { y: 900, label: 'Packages' },
      { y: 0, label: 'top' },
      { y: 1000, label: 'Tier 1' },
      { y: 1700, label: 'Tier 4' },
    ]);
    expect(stops.map((s) => s.label)).toEqual(['top', 'Packages', 'Tier 4']);
  });
});

describe('planScroll', () => {
  const stops: Stop[] = [
    { y: 0, label: 'the top' },
    { y: 700, label: 'Services' },
    { y: 1500, label: 'Packages' },
    { y: 2300, label: 'FAQ' },
  ];
  const page = { stops, viewportHeight: 800, documentHeight: 3600, pricing: { y: 1500, label: 'pricing' } };

  it('goes to the next stop below the current position', () => {
    expect(planScroll({ ...page, scrollY: 0 })).toEqual({ y: 700, direction: 'down', label: 'Scroll down to Services' });
    expect(planScroll({ ...page, scrollY: 700 })).toMatchObject({ y: 1500, label: 'Scroll down to Packages' });
    expect(planScroll({ ...page, scrollY: 900 })).toMatchObject({ y: 1500 });
  });

  it('ignores the few pixels a scroll lands short of a stop', () => {
    expect(planScroll({ ...page, scrollY: 698 })).toMatchObject({ y: 1500 });
  });

  it('after the last stop goes to the end of the page, and from the bottom back up to pricing', () => {
    expect(planScroll({ ...page, scrollY: 2300 })).toEqual({ y: 2800, direction: 'down', label: 'Scroll down to the end of the page' });
    expect(planScroll({ ...page, scrollY: 2800 })).toEqual({ y: 1500, direction: 'up', label: 'Scroll back up to pricing' });
  });

  it('goes back to the top from the bottom of a page without pricing', () => {
    expect(planScroll({ ...page, pricing: null, scrollY: 2800 })).toEqual({ y: 0, direction: 'up', label: 'Scroll back to the top' });
  });

  it('treats a stop just above the bottom as the bottom, so the next press goes back up', () => {
    const nearEnd = { ...page, stops: [...stops, { y: 2770, label: 'Call to action' }] };
    expect(planScroll({ ...nearEnd, scrollY: 2300 })).toEqual({ y: 2800, direction: 'down', label: 'Scroll down to Call to action' });
    expect(planScroll({ ...nearEnd, scrollY: 2800 })).toMatchObject({ y: 1500, direction: 'up' });
  });

  it('clamps a stop that lies below the last scroll position to the bottom of the page', () => {
    const short = { stops: [{ y: 3500, label: 'Footer block' }], viewportHeight: 800, documentHeight: 3600, pricing: null };
    expect(planScroll({ ...short, scrollY: 0 })).toMatchObject({ y: 2800, direction: 'down', label: 'Scroll down to Footer block' });
  });
});
