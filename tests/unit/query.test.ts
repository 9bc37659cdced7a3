import { describe, expect, it } from 'vitest';
import { MAX_TAG_LENGTH, PAGE_ERROR, TAG_ERROR, articlesPageExists, pageCount, parseArticlesQuery, parseRouteId } from '../../src/shared/query';

const q = (s: string) => parseArticlesQuery(new URLSearchParams(s));

describe('articles query', () => {
  it('defaults to page 1 with no tag', () => {
    expect(q('')).toEqual({ ok: true, page: 1, tag: undefined });
    expect(q('page=&tag=')).toEqual({ ok: true, page: 1, tag: undefined });
  });
  it('accepts whole page numbers from 1', () => {
    expect(q('page=1')).toMatchObject({ ok: true, page: 1 });
    expect(q('page=12')).toMatchObject({ ok: true, page: 12 });
  });
  it.each(['-1', '0', 'abc', '1.5', '1e3', ' 2', '0x10', '9999999', '2abc'])('rejects page=%s with a clear message', (page) => {
    const r = q(`page=${encodeURIComponent(page)}`);
    expect(r).toMatchObject({ ok: false, field: 'page', message: PAGE_ERROR });
    expect(PAGE_ERROR).toMatch(/^That page number isn't valid/);
  });
  it('accepts ordinary tags, trimmed', () => {
    expect(q('tag=lead%20generation')).toMatchObject({ ok: true, tag: 'lead generation' });
    expect(q('tag=AI%20%26%20automation')).toMatchObject({ ok: true, tag: 'AI & automation' });
    expect(q('tag=%20no-shows%20')).toMatchObject({ ok: true, tag: 'no-shows' });
    expect(q('tag=Zahnärzte')).toMatchObject({ ok: true, tag: 'Zahnärzte' });
  });
  it('rejects markup, quotes and over-long tags', () => {
    expect(q(`tag=${encodeURIComponent('<script>alert(1)</script>')}`)).toMatchObject({ ok: false, field: 'tag' });
    expect(q(`tag=${encodeURIComponent('"onmouseover=x')}`)).toMatchObject({ ok: false, field: 'tag' });
    expect(q(`tag=${'a'.repeat(MAX_TAG_LENGTH)}`)).toMatchObject({ ok: true });
    expect(q(`tag=${'a'.repeat(MAX_TAG_LENGTH + 1)}`)).toMatchObject({ ok: false, field: 'tag' });
  });
  it('says what is wrong without keeping the stranger\'s text', () => {
    expect(q(`tag=${encodeURIComponent('zebra<unicorn>')}`)).toEqual({ ok: false, field: 'tag', message: TAG_ERROR });
    expect(q('page=zebra42')).toEqual({ ok: false, field: 'page', message: PAGE_ERROR });
    expect(`${TAG_ERROR} ${PAGE_ERROR}`).not.toMatch(/zebra/i);
  });
});

describe('articles page exists', () => {
  const PER_PAGE = 12;
  it('the first page always exists without a tag, even with no articles', () => {
    expect(articlesPageExists({ page: 1, tag: undefined }, 0, PER_PAGE)).toBe(true);
    expect(articlesPageExists({ page: 1, tag: undefined }, 30, PER_PAGE)).toBe(true);
  });
  it('a page past the last one does not', () => {
    expect(articlesPageExists({ page: 3, tag: undefined }, 30, PER_PAGE)).toBe(true);
    expect(articlesPageExists({ page: 4, tag: undefined }, 30, PER_PAGE)).toBe(false);
    expect(articlesPageExists({ page: 2, tag: 'crm' }, 12, PER_PAGE)).toBe(false);
  });
  it('a tag no published article carries does not, on any page', () => {
    expect(articlesPageExists({ page: 1, tag: 'zebra-unicorn-42' }, 0, PER_PAGE)).toBe(false);
    expect(articlesPageExists({ page: 1, tag: 'crm' }, 1, PER_PAGE)).toBe(true);
  });
});

describe('route ids', () => {
  it('accepts readable slugs and imported ids', () => {
    expect(parseRouteId('ai-lead-outreach')).toBe('ai-lead-outreach');
    expect(parseRouteId('Xy12AbCdEf34GhIjKl56')).toBe('Xy12AbCdEf34GhIjKl56');
    expect(parseRouteId('under_score')).toBe('under_score');
  });
  it.each([undefined, '', 'a'.repeat(129), 'bad id', '../etc', 'a/b', '<x>', '-leading', 'dot.ted'])('rejects %s', (id) => {
    expect(parseRouteId(id)).toBeUndefined();
  });
});

describe('page count', () => {
  it('is at least 1 and rounds up', () => {
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(12, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
  });
});
