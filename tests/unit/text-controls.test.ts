/** The one rule for invisible characters (src/shared/text-controls.ts) and the one site-path rule (src/shared/site-path.ts). */
import { describe, expect, it } from 'vitest';
import { isSitePath, sanitizeSitePath } from '../../src/shared/site-path';
import { cleanLine, hasControlCharacters, isCleanLine, isCleanText, withoutBidiControls } from '../../src/shared/text-controls';

const BIDI_CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const DIRECTION_MARKS = ['\u200E', '\u200F', '\u061C'];

describe('one line (names, paths, subjects)', () => {
  it.each([...BIDI_CONTROLS, ...DIRECTION_MARKS, '\n', '\r', '\t', '\u0000', '\u001B', '\u007F', '\u0085', '\u009F'])('refuses U+%s', (ch) => {
    expect(isCleanLine(`Ada${ch}Lovelace`)).toBe(false);
    expect(cleanLine(`Ada${ch}Lovelace`)).toBe('AdaLovelace');
  });

  it('keeps letters of every script, marks, emoji and punctuation', () => {
    for (const text of ['Ada Lovelace', 'Zoë O’Brien-Smith', 'דוד כהן', 'محمد علي', '山田太郎', 'José 🚀 (CEO)']) {
      expect(isCleanLine(text), text).toBe(true);
      expect(cleanLine(text)).toBe(text);
    }
  });

  it('can replace instead of removing', () => {
    expect(cleanLine('a\nb\u202Ec', ' ')).toBe('a b c');
  });
});

describe('multi-line text', () => {
  it('keeps line breaks and tabs; refuses other controls and, for mail-bound text, bidi controls', () => {
    expect(isCleanText('line one\r\nline two\tend')).toBe(true);
    expect(isCleanText('a\u200Fb')).toBe(true);
    for (const ch of [...BIDI_CONTROLS, '\u0007', '\u0085']) expect(isCleanText(`a${ch}b`)).toBe(false);
    expect(hasControlCharacters('line one\nline two\ttab')).toBe(false);
    expect(hasControlCharacters('bell\u0007')).toBe(true);
    expect(hasControlCharacters('next line\u0085')).toBe(true);
    expect(hasControlCharacters('\u202Eflipped')).toBe(false);
  });

  it('shows text without its bidi controls, every letter and direction mark kept', () => {
    expect(withoutBidiControls('Invoice\u202Efdp.exe')).toBe('Invoicefdp.exe');
    expect(withoutBidiControls('\u2067שלום\u2069 world\u200F')).toBe('שלום world\u200F');
  });
});

describe('a path on this site', () => {
  it.each(['/free-audit', '/#faq-3', '/service/lead-outreach?x=1', '/a%5Cb'])('%s is one', (path) => {
    expect(isSitePath(path)).toBe(true);
  });

  it.each([
    '/\\evil.test/x',
    '\\/evil.test',
    '/\\/evil.test',
    '//evil.test/x',
    '/\t/evil.test',
    '/\n/evil.test',
    '/x\u202E',
    'https://evil.test/',
    'javascript:alert(1)',
    'evil.test',
    ' /x',
    '',
    `/${'a'.repeat(512)}`,
  ])('%j is not', (path) => {
    expect(isSitePath(path)).toBe(false);
  });

  it('sanitizeSitePath trims and drops what is not one', () => {
    expect(sanitizeSitePath('  /dashboard ')).toBe('/dashboard');
    expect(sanitizeSitePath('/\\evil.test')).toBeUndefined();
    expect(sanitizeSitePath(42)).toBeUndefined();
  });
});
