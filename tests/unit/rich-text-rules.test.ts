import { describe, expect, it } from 'vitest';
import { checkImageAlt, checkImageSrc, checkLinkHref, LINK_RULE_MESSAGE } from '../../src/shared/rich-text';

const ok = (value: string) => ({ ok: true, value });

describe('checkLinkHref (the link dialog)', () => {
  it('accepts web addresses, site paths, mailto: and tel: as typed', () => {
    for (const href of ['https://example.com/page?x=1#top', 'http://example.com', 'HTTPS://Example.com', '/services', '/article/x#faq', 'mailto:hello@example.com', 'mailto:hello@example.com?subject=Hi', 'tel:+1 555 0100', 'tel:(555) 010-0100']) {
      expect(checkLinkHref(href)).toEqual(ok(href));
    }
    expect(checkLinkHref('  /packages  ')).toEqual(ok('/packages'));
  });

  it('completes what people leave out: https:// before a host name, mailto: before an email address', () => {
    expect(checkLinkHref('example.com')).toEqual(ok('https://example.com'));
    expect(checkLinkHref('www.example.co.uk/about?x=1')).toEqual(ok('https://www.example.co.uk/about?x=1'));
    expect(checkLinkHref('hello@example.com')).toEqual(ok('mailto:hello@example.com'));
  });

  it('refuses scripts, data, other schemes and other hosts written as paths, saying what is accepted', () => {
    for (const href of ['javascript:alert(1)', ' JavaScript:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd']) {
      const checked = checkLinkHref(href);
      expect(checked.ok, href).toBe(false);
      expect(checked).toMatchObject({ message: expect.stringMatching(/^Links to (javascript|vbscript|data|file): addresses are not allowed\./) });
    }
    for (const href of ['ftp://example.com', '//evil.example', 'services', 'not a link', 'http://', 'https://nohost', 'mailto:nobody', 'tel:call-me']) {
      expect(checkLinkHref(href), href).toEqual({ ok: false, message: LINK_RULE_MESSAGE });
    }
    expect(checkLinkHref('   ')).toEqual({ ok: false, message: 'Enter the address the link goes to.' });
    expect(checkLinkHref(`https://example.com/${'a'.repeat(2048)}`)).toMatchObject({ ok: false, message: expect.stringContaining('too long') });
  });
});

describe('checkImageSrc and checkImageAlt (the picture dialog)', () => {
  it('accepts our media files and http(s) pictures, nothing else', () => {
    expect(checkImageSrc('/media/0123456789abcdef0123456789abcdef.webp')).toEqual(ok('/media/0123456789abcdef0123456789abcdef.webp'));
    expect(checkImageSrc(' https://images.example.com/a.png ')).toEqual(ok('https://images.example.com/a.png'));
    for (const src of ['data:image/png;base64,AAAA', 'javascript:alert(1)', '//evil.example/x.png', 'x.png', '']) {
      expect(checkImageSrc(src).ok, src).toBe(false);
    }
  });

  it('requires a description, on one line, under 300 characters', () => {
    expect(checkImageAlt('  A chart\n of leads ')).toEqual(ok('A chart of leads'));
    expect(checkImageAlt(' ')).toEqual({ ok: false, message: 'Describe the picture for people who cannot see it.' });
    expect(checkImageAlt('x'.repeat(301)).ok).toBe(false);
  });
});
