import { describe, expect, it } from 'vitest';
import { blocksFromConfig, LANDING_BLOCKS, resolveBlockOrder } from '../../src/shared/landing';
import { bestValueRule, bestValueShortfall, isBestValue, qualifiesForBestValue } from '../../src/shared/packages';
import { formatMoney } from '../../src/shared/money';
import { cutSeoDescription, cutSeoTitle } from '../../src/shared/seo';

describe('BEST VALUE', () => {
  it('needs at least 3 included services and a setup price of at least 1000', () => {
    expect(isBestValue({ includedServiceIds: ['a', 'b', 'c'], priceSetup: 1000 })).toBe(true);
    expect(isBestValue({ includedServiceIds: ['a', 'b', 'c', 'd'], priceSetup: 5000 })).toBe(true);
    expect(isBestValue({ includedServiceIds: ['a', 'b'], priceSetup: 5000 })).toBe(false);
    expect(isBestValue({ includedServiceIds: ['a', 'b', 'c'], priceSetup: 999.99 })).toBe(false);
    expect(isBestValue({ includedServiceIds: ['a', 'b', 'c'], priceSetup: null })).toBe(false);
  });

  it('is the same rule on counts (list rows and the server count included services)', () => {
    expect(qualifiesForBestValue(3, 1000)).toBe(true);
    expect(qualifiesForBestValue(2, 1000)).toBe(false);
    expect(qualifiesForBestValue(3, 999.99)).toBe(false);
    expect(qualifiesForBestValue(30, null)).toBe(false);
  });

  it('tells the editor what a package still lacks, in the site currency', () => {
    const usd = (n: number) => formatMoney(n, 'USD');
    expect(bestValueRule(usd)).toBe('A package with at least 3 included services and a setup price of at least $1,000 gets the badge.');
    expect(bestValueShortfall(3, 1000, usd)).toEqual([]);
    expect(bestValueShortfall(2, 1500, usd)).toEqual(['1 more included service']);
    expect(bestValueShortfall(0, null, usd)).toEqual(['3 more included services', 'a setup price of at least $1,000']);
    expect(bestValueShortfall(5, 999.5, usd)).toEqual(['a setup price of at least $1,000 (now $999.50)']);
    expect(bestValueShortfall(1, 10, (n) => formatMoney(n, 'EUR'))).toEqual(['2 more included services', 'a setup price of at least €1,000 (now €10)']);
  });
});

describe('SEO cuts', () => {
  it('keeps a 60-character title and cuts a longer one to 57 plus "..."', () => {
    const sixty = 't'.repeat(60);
    expect(cutSeoTitle(sixty)).toBe(sixty);
    const cut = cutSeoTitle('t'.repeat(61));
    expect(cut).toBe(`${'t'.repeat(57)}...`);
    expect(cut).toHaveLength(60);
  });
  it('keeps a 160-character description and cuts a longer one to 157 plus "..."', () => {
    expect(cutSeoDescription('d'.repeat(160))).toHaveLength(160);
    expect(cutSeoDescription('d'.repeat(200))).toBe(`${'d'.repeat(157)}...`);
  });
});

describe('landing block order', () => {
  it('uses the default order when the stored order is missing or not a list', () => {
    expect(resolveBlockOrder(undefined)).toEqual([...LANDING_BLOCKS]);
    expect(resolveBlockOrder('hero,faqs')).toEqual([...LANDING_BLOCKS]);
  });
  it('follows the stored order, skipping unknown names, duplicates and hidden blocks', () => {
    expect(resolveBlockOrder(['faqs', 'bogus', 'hero', 'faqs', 'cta'], ['cta'])).toEqual(['faqs', 'hero']);
  });
  it('renders nothing for an empty stored list', () => {
    expect(resolveBlockOrder([])).toEqual([]);
  });
});

describe('landing block order from a stored config document', () => {
  it('applies the stored order and hidden list, and falls back to the default for a missing document', () => {
    expect(blocksFromConfig({ blockOrder: ['cta', 'hero', 'nope'], hidden: ['hero', 42] })).toEqual(['cta']);
    expect(blocksFromConfig(null)).toEqual([...LANDING_BLOCKS]);
    expect(blocksFromConfig({ hidden: ['faqs'] })).toEqual(LANDING_BLOCKS.filter((b) => b !== 'faqs'));
  });
});
