import { describe, expect, it } from 'vitest';
import { cardText, cutText, firstWords, readingMinutes, slugify, stripHtml, takeWithRest } from '../../src/shared/text';

describe('stripHtml', () => {
  it('removes tags, scripts and decodes entities', () => {
    expect(stripHtml('<p>Fast &amp; <b>friendly</b></p><script>alert(1)</script>')).toBe('Fast & friendly');
    expect(stripHtml('a&nbsp;b &#39;c&#39; &#x41;')).toBe("a b 'c' A");
  });
  it('collapses and trims white space of plain text too', () => {
    expect(stripHtml('Plain text, as is.')).toBe('Plain text, as is.');
    expect(stripHtml(' two  spaces\tand\na line ')).toBe('two spaces and a line');
    expect(stripHtml('no\u00a0break')).toBe('no break');
  });
});

describe('card text cuts', () => {
  it('keeps text of exactly the limit and cuts longer text to the limit plus an ellipsis', () => {
    const exact = 'x'.repeat(120);
    expect(cutText(exact, 120)).toBe(exact);
    expect(cutText('y'.repeat(121), 120)).toBe(`${'y'.repeat(120)}...`);
  });
  it('counts characters, not UTF-16 units: 120 emoji are not cut', () => {
    const emoji = '😀'.repeat(120);
    expect(cutText(emoji, 120)).toBe(emoji);
    expect(cutText(`${emoji}!`, 120)).toBe(`${emoji}...`);
  });
  it('strips HTML before cutting, so markup does not count towards the limit', () => {
    const html = `<p><strong>${'a'.repeat(150)}</strong></p>`;
    expect(cardText(html, 150)).toBe('a'.repeat(150));
    expect(cardText(`<p>${'b'.repeat(151)}</p>`, 150)).toBe(`${'b'.repeat(150)}...`);
  });
});

describe('firstWords', () => {
  it('takes the first 20 words of the stripped content', () => {
    const words = Array.from({ length: 25 }, (_, i) => `w${i}`);
    expect(firstWords(`<p>${words.join(' ')}</p>`, 20)).toBe(`${words.slice(0, 20).join(' ')}...`);
    expect(firstWords('<p>only three words</p>', 20)).toBe('only three words');
  });
});

describe('takeWithRest', () => {
  it('shows the first items and counts the rest', () => {
    expect(takeWithRest([1, 2, 3, 4, 5, 6], 4)).toEqual({ shown: [1, 2, 3, 4], rest: 2 });
    expect(takeWithRest([1], 4)).toEqual({ shown: [1], rest: 0 });
  });
});

describe('slugify and reading time', () => {
  it('makes readable ids', () => {
    expect(slugify('AI Lead Outreach!')).toBe('ai-lead-outreach');
    expect(slugify('Café Rémi — Reminders')).toBe('cafe-remi-reminders');
    expect(slugify('!!!')).toBe('item');
  });
  it('counts at least one minute', () => {
    expect(readingMinutes('<p>short</p>')).toBe(1);
    expect(readingMinutes(`<p>${'word '.repeat(660)}</p>`)).toBe(3);
  });
});
