import { describe, expect, it } from 'vitest';
import { mediaSrcset, parseMediaFile } from '../../src/shared/media-variants';
import {
  articleCardView,
  articleExcerpt,
  demoCardView,
  inIncludedOrder,
  moreLabel,
  packageCardView,
  serviceCardView,
} from '../../src/shared/cards';

const chars = (n: number) => 'x'.repeat(n);
const list = (n: number, prefix = 'item') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
/** n one-word tokens: w1 w2 ... */
const wordList = (n: number) => Array.from({ length: n }, (_, i) => `w${i + 1}`);

describe('service card', () => {
  it('shows the first 4 benefits and counts the rest', () => {
    const v = serviceCardView({ shortText: 'Short', benefits: list(6) });
    expect(v.benefits).toEqual(list(4));
    expect(v.moreBenefits).toBe(2);
    expect(moreLabel(v.moreBenefits)).toBe('+2 more');
  });
  it('shows all benefits and no count when there are 4 or fewer', () => {
    const v = serviceCardView({ shortText: '', benefits: list(4) });
    expect(v.benefits).toHaveLength(4);
    expect(v.moreBenefits).toBe(0);
    expect(moreLabel(0)).toBe('');
  });
  it('strips HTML from the short text and cuts it to 120 characters plus "..."', () => {
    expect(serviceCardView({ shortText: `<p><strong>${chars(120)}</strong></p>`, benefits: [] }).text).toBe(chars(120));
    expect(serviceCardView({ shortText: `<p>${chars(121)}</p>`, benefits: [] }).text).toBe(`${chars(120)}...`);
    expect(serviceCardView({ shortText: 'Fast &amp; <em>friendly</em>', benefits: [] }).text).toBe('Fast & friendly');
  });
});

describe('demo card', () => {
  it('shows the first 2 suitableFor entries and counts the rest', () => {
    const v = demoCardView({ shortText: 'x', suitableFor: list(5) });
    expect(v.suitableFor).toEqual(list(2));
    expect(v.moreSuitableFor).toBe(3);
  });
  it('cuts the short text to 120 characters', () => {
    expect(demoCardView({ shortText: chars(200), suitableFor: [] }).text).toBe(`${chars(120)}...`);
  });
});

describe('package card', () => {
  const services = list(5).map((name, i) => ({ id: `s${i}`, name, shortText: `<b>${name}</b> text` }));
  const features = list(4).map((title) => ({ title, description: `${title} description` }));

  it('shows the first 3 included services and the first 2 features, with the rest counted', () => {
    const v = packageCardView({ shortText: 'x', features }, services);
    expect(v.services.map((s) => s.id)).toEqual(['s0', 's1', 's2']);
    expect(v.moreServices).toBe(2);
    expect(v.features).toEqual(features.slice(0, 2));
    expect(v.moreFeatures).toBe(2);
  });
  it('cuts the short text to 150 characters and strips HTML from included service texts', () => {
    const v = packageCardView({ shortText: chars(150), features: [] }, services);
    expect(v.text).toBe(chars(150));
    expect(packageCardView({ shortText: chars(151), features: [] }, []).text).toBe(`${chars(150)}...`);
    expect(v.services[0]?.shortText).toBe('item 1 text');
  });
  it('keeps included services in includedServiceIds order and skips deleted ones', () => {
    const found = [{ id: 'b' }, { id: 'a' }, { id: 'c' }];
    expect(inIncludedOrder(['c', 'gone', 'a', 'b'], found).map((s) => s.id)).toEqual(['c', 'a', 'b']);
  });
});

describe('article card', () => {
  const words = wordList(30).join(' ');
  it('uses the excerpt when there is one', () => {
    expect(articleExcerpt({ excerpt: 'An excerpt.', content: `<p>${words}</p>` })).toBe('An excerpt.');
  });
  it('falls back to the first 20 words of the stripped content', () => {
    const expected = `${wordList(20).join(' ')}...`;
    expect(articleExcerpt({ excerpt: '', content: `<h2>${words}</h2>` })).toBe(expected);
    expect(articleExcerpt({ excerpt: '  <p> </p> ', content: `<p>${words}</p>` })).toBe(expected);
  });
  it('does not add "..." when the content has 20 words or fewer', () => {
    expect(articleExcerpt({ excerpt: '', content: `<p>${wordList(20).join(' ')}</p>` })).toBe(wordList(20).join(' '));
  });
  it('shows the first 3 tags', () => {
    const v = articleCardView({ excerpt: 'e', content: '', tags: list(5, 'tag') });
    expect(v.tags).toEqual(list(3, 'tag'));
    expect(v.moreTags).toBe(2);
  });
});

describe('picture variants for srcset', () => {
  const id = 'a'.repeat(32);
  it('offers 400 and 800 px variants of a stored picture and the original last', () => {
    expect(mediaSrcset(`/media/${id}.webp`)).toBe(`/media/${id}-w400.webp 400w, /media/${id}-w800.webp 800w, /media/${id}.webp 1600w`);
  });
  it('offers nothing for pictures that are not stored media', () => {
    expect(mediaSrcset('https://example.com/picture.jpg')).toBeUndefined();
    expect(mediaSrcset(`/media/${id}-w400.webp`)).toBeUndefined();
    expect(mediaSrcset('')).toBeUndefined();
  });
  it('parses the original and the offered widths only', () => {
    expect(parseMediaFile(`${id}.webp`)).toEqual({ id });
    expect(parseMediaFile(`${id}-w800.webp`)).toEqual({ id, width: 800 });
    expect(parseMediaFile(`${id}-w600.webp`)).toBeUndefined();
    expect(parseMediaFile(`${id}.png`)).toBeUndefined();
    expect(parseMediaFile(undefined)).toBeUndefined();
  });
});
