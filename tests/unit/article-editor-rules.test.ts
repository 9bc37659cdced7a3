/**
 * The article editor's shared rules (src/shared/schemas/catalog.ts, src/shared/tags.ts): the same schema
 * checks the form in the browser and the Action on the server, so these are what an admin sees beside the
 * fields before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { articleRecordSchema } from '../../src/shared/content-bundle';
import { ALT_REQUIRED_MESSAGE, articleSchema, fieldErrorsByPath, SLUG_MESSAGE } from '../../src/shared/schemas/catalog';
import { addTags, matchingSuggestions, normalizeTag } from '../../src/shared/tags';
import { parseArticlesQuery, parseRouteId } from '../../src/shared/query';

const base = { title: 'Speed to lead' };
const errorsOf = (input: unknown) => {
  const parsed = articleSchema.safeParse(input);
  return parsed.success ? {} : fieldErrorsByPath(parsed.error.issues);
};

describe('article schema (editor and Action)', () => {
  it('accepts an empty slug (the server makes one) and a slug /article/{slug} can serve', () => {
    expect(articleSchema.parse(base)).toMatchObject({ slug: '', tags: [], published: false });
    expect(articleSchema.parse({ ...base, slug: '  Lead_Magnets-2 ' }).slug).toBe('Lead_Magnets-2');
    for (const slug of ['a.b', '~x', '-x', 'x y', 'ü']) {
      expect(errorsOf({ ...base, slug })).toEqual({ slug: SLUG_MESSAGE });
      // What the form accepts, the public page finds (and the other way round).
      expect(parseRouteId(slug)).toBeUndefined();
    }
    expect(parseRouteId(articleSchema.parse({ ...base, slug: 'Lead_Magnets-2' }).slug)).toBe('Lead_Magnets-2');
  });

  it('requires alt text with a featured image only', () => {
    expect(errorsOf({ ...base, featuredImage: 'https://x.example/a.jpg' })).toEqual({ featuredImageAlt: ALT_REQUIRED_MESSAGE });
    expect(errorsOf({ ...base, featuredImage: 'https://x.example/a.jpg', featuredImageAlt: ' \n ' })).toEqual({ featuredImageAlt: ALT_REQUIRED_MESSAGE });
    expect(errorsOf({ ...base, featuredImage: 'https://x.example/a.jpg', featuredImageAlt: 'A ringed calendar day' })).toEqual({});
    expect(errorsOf({ ...base, featuredImageAlt: '' })).toEqual({});
  });

  it('tells every problem at once, wrong types included', () => {
    expect(errorsOf({ title: '', featuredImage: 'https://x.example/a.jpg', tags: 'ai' })).toEqual({
      title: 'Must not be empty',
      tags: 'Must be a list',
      featuredImageAlt: ALT_REQUIRED_MESSAGE,
    });
    for (const input of [null, 'x', 1, []]) expect(errorsOf(input)).toEqual({ form: expect.stringMatching(/^Must be an object/) });
  });

  it('holds tags to what /articles?tag= accepts, each once whatever its case', () => {
    const errors = errorsOf({ ...base, tags: ['AI & automation', 'ai & Automation', 'a/b', ''] });
    expect(Object.keys(errors).sort()).toEqual(['tags.1', 'tags.2', 'tags.3']);
    for (const tag of ['AI & automation', 'C++', 'No-shows', 'Ärzte']) expect(parseArticlesQuery(new URLSearchParams({ tag }))).toMatchObject({ ok: true, tag });
  });

  it('leaves the content file as it was: an imported article may have a picture without alt text', () => {
    const record = { id: 'x', slug: 'x', title: 'X', featuredImage: 'https://x.example/a.jpg' };
    expect(articleRecordSchema.safeParse(record).success).toBe(true);
  });
});

describe('tags being typed', () => {
  const suggestions = ['AI & automation', 'No-shows', 'Leads'];

  it('adds comma-separated parts, trimmed, in the spelling already in use, each once', () => {
    expect(addTags(['Leads'], '  ai &   automation , leads,New one,,', suggestions, 20)).toEqual({
      tags: ['Leads', 'AI & automation', 'New one'],
      added: ['AI & automation', 'New one'],
      duplicates: ['leads'],
    });
    expect(normalizeTag('  a   b ')).toBe('a b');
  });

  it('stops at the most tags allowed', () => {
    expect(addTags(['a', 'b'], 'c, d', [], 3)).toMatchObject({ tags: ['a', 'b', 'c'], added: ['c'] });
  });

  it('suggests tags not chosen yet, those starting with the text first', () => {
    expect(matchingSuggestions(['Automation', 'AI & automation', 'No-shows', 'Leads'], 'auto', ['Leads'])).toEqual(['Automation', 'AI & automation']);
    expect(matchingSuggestions(suggestions, '', ['leads'])).toEqual(['AI & automation', 'No-shows']);
    expect(matchingSuggestions(suggestions, 'zzz', [])).toEqual([]);
  });
});
