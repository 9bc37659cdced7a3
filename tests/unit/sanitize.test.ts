import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../src/server/html/sanitize';

describe('sanitizeHtml', () => {
  it('removes scripts, styles, frames, forms and their contents', () => {
    const out = sanitizeHtml(
      '<p>Hi</p><script>alert(1)</script><style>p{display:none}</style><iframe src="https://evil.example"></iframe><form action="/x"><input name="a"></form>',
    );
    expect(out).toBe('<p>Hi</p>');
  });

  it('removes event handlers and inline styles but keeps the element', () => {
    expect(sanitizeHtml('<img src="/media/abc.webp" alt="A" onerror="alert(1)">')).toBe('<img src="/media/abc.webp" alt="A">');
    expect(sanitizeHtml('<p onclick="steal()" style="color:red">Text</p>')).toBe('<p>Text</p>');
    expect(sanitizeHtml('<svg onload="alert(1)"><circle r="1"/></svg>')).not.toMatch(/onload|svg/);
  });

  it('drops javascript: and other unsafe link targets', () => {
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href=" JaVaScRiPt:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="vbscript:msgbox(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="x">')).toBe('<img alt="x">');
  });

  it('keeps the formatting articles, FAQ answers and policies use', () => {
    const html =
      '<h2>Title</h2><p>Some <strong>bold</strong>, <em>italic</em> and <a href="https://example.com/page" title="Example">a link</a>.</p>' +
      '<ul><li>One</li><li>Two</li></ul><ol start="3"><li>Three</li></ol><blockquote><p>Quote</p></blockquote>' +
      '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>' +
      '<p><a href="/services">internal</a> <a href="mailto:hello@example.com">mail</a> <a href="tel:+15551234">call</a></p>' +
      '<figure><img src="/media/0123456789abcdef0123456789abcdef.webp" alt="Chart" width="600" height="400"><figcaption>Caption</figcaption></figure>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('adds rel="noopener noreferrer" to links opening a new tab, keeping other rel values', () => {
    expect(sanitizeHtml('<a href="https://example.com" target="_blank">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<a href="https://example.com" target="_blank" rel="nofollow">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="nofollow noopener noreferrer">x</a>',
    );
    // Named targets could reuse another window; only _blank is kept.
    expect(sanitizeHtml('<a href="https://example.com" target="other">x</a>')).toBe('<a href="https://example.com">x</a>');
  });

  it('turns <h1> into <h2> (the page title is the only h1)', () => {
    expect(sanitizeHtml('<h1 title="t">Heading</h1><p>x</p>')).toBe('<h2 title="t">Heading</h2><p>x</p>');
  });

  it('is idempotent, so re-importing an export does not change stored HTML', () => {
    const dirty = '<p>Fish &amp; chips <a href="https://x.example" target="_blank">x</a><img src="x" onerror="y"></p><h1>T</h1>';
    const once = sanitizeHtml(dirty);
    expect(sanitizeHtml(once)).toBe(once);
  });

  it('leaves the shared DOMPurify instance without our hook afterwards', async () => {
    const DOMPurify = (await import('isomorphic-dompurify')).default;
    sanitizeHtml('<a href="https://x.example" target="_blank">x</a>');
    expect(DOMPurify.sanitize('<a href="https://x.example" target="_blank">x</a>', { ADD_ATTR: ['target'] })).toBe(
      '<a href="https://x.example" target="_blank">x</a>',
    );
  });
});
