import { describe, expect, it } from 'vitest';
import { MAX_TAG_LENGTH, PAGE_ERROR, echoValue, pageCount, parseArticlesQuery, parseRouteId } from '../../src/shared/query';

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
  it('keeps the rejected value for an escaped echo, shortened', () => {
    const r = q(`tag=${encodeURIComponent('<b>')}`);
    expect(r.ok ? '' : r.value).toBe('<b>');
    expect(echoValue('x'.repeat(100))).toBe(`${'x'.repeat(60)}…`);
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
