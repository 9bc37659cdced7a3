import { describe, expect, it } from 'vitest';
import { blocksFromConfig, LANDING_BLOCKS, resolveBlockOrder } from '../../src/shared/landing';
import { isBestValue } from '../../src/shared/packages';
import { cutSeoDescription, cutSeoTitle } from '../../src/shared/seo';

describe('BEST VALUE', () => {
  it('needs at least 3 included services and a setup price of at least 1000', () => {
    expect(isBestValue({ includedServiceIds: ['a', 'b', 'c'], priceSetup: 1000 })).toBe(true);
    expect(isBestValue({ includedServiceIds: ['a', 'b', 'c', 'd'], priceSetup: 5000 })).toBe(true);
    expect(isBestValue({ includedServiceIds: ['a', 'b'], priceSetup: 5000 })).toBe(false);
    expect(isBestValue({ includedServiceIds: ['a', 'b', 'c'], priceSetup: 999.99 })).toBe(false);
    expect(isBestValue({ includedServiceIds: ['a', 'b', 'c'], priceSetup: null })).toBe(false);
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
