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

  it('drops links whose scheme is hidden by entities, tabs or a leading NUL', () => {
    for (const href of ['java&#x09;script:alert(1)', '&#106;avascript:alert(1)', 'javascript&colon;alert(1)', '\u0001javascript:alert(1)']) {
      expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe('<a>x</a>');
    }
    // A NUL becomes U+FFFD: a harmless relative address, not a scheme.
    expect(sanitizeHtml('<a href="\u0000javascript:alert(1)">x</a>')).not.toMatch(/href="javascript:/i);
  });

  it('keeps no payload of the usual mutation and namespace tricks, and stays idempotent on them', () => {
    const payloads = [
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
      '<template><script>alert(1)</script><p>t</p></template>',
      '<!--><img src=x onerror=alert(1)>-->',
      '<math><mi xlink:href="javascript:alert(1)">click</mi></math>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
      '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
      '<svg><style><img src=x onerror=alert(1)></style></svg>',
      '<select><template><img src=x onerror=alert(1)></template></select>',
      '<form><button formaction="javascript:alert(1)">x</button></form>',
      '<details open ontoggle="alert(1)"><summary>s</summary>d</details>',
      '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert(1)"><link rel="stylesheet" href="https://evil.example/x.css">',
      '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)"><iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<img src="https://x.example/a.png" srcset="javascript:alert(1) 1x" alt="s"><table><tr><td background="javascript:alert(1)">t</td></tr></table>',
      '<blockquote cite="javascript:alert(1)">q</blockquote><p style="background:url(javascript:alert(1))">s</p>',
    ];
    for (const payload of payloads) {
      const clean = sanitizeHtml(payload);
      expect(clean, payload).not.toMatch(/<(script|style|svg|math|iframe|object|embed|base|meta|link|form|button|template|noscript|select)\b|\son[a-z]+=|javascript:|srcdoc|srcset/i);
      expect(sanitizeHtml(clean), payload).toBe(clean);
    }
  });

  it('drops ids, names, classes and data attributes (no DOM clobbering of the page’s own script)', () => {
    expect(sanitizeHtml('<p id="location" name="x" class="c" data-x="1">p</p><a name="cookie">a</a>')).toBe('<p>p</p><a>a</a>');
  });

  it('refuses pictures from another host written as a path ("/\\host" and "//host")', () => {
    expect(sanitizeHtml('<img src="/\\evil.example/x.png" alt="e">')).toBe('<img alt="e">');
    expect(sanitizeHtml('<img src="//evil.example/x.png" alt="f">')).toBe('<img alt="f">');
    expect(sanitizeHtml('<img src="/media/0123456789abcdef0123456789abcdef.webp" alt="ours">')).toBe('<img src="/media/0123456789abcdef0123456789abcdef.webp" alt="ours">');
  });

  it('turns only real <h1> tags into <h2>, not text that looks like one', () => {
    expect(sanitizeHtml('<p title="<h1>x</h1>">&lt;h1&gt; is the page title</p>')).toBe('<p title="&lt;h1&gt;x&lt;/h1&gt;">&lt;h1&gt; is the page title</p>');
    expect(sanitizeHtml('<H1>Loud</H1>')).toBe('<h2>Loud</h2>');
  });

  it('keeps what the rich-text editor writes exactly as it is (so the preview is the stored text)', () => {
    const tiptap =
      '<h2>Heading</h2><p>Text with <strong>bold</strong>, <em>italic</em>, <u>under</u>, <s>strike</s> and <a href="https://example.com" target="_blank" rel="noopener noreferrer">a link</a>.</p>' +
      '<ul><li><p>One</p></li><li><p>Two</p></li></ul><ol start="2"><li><p>Three</p></li></ol><blockquote><p>Quote</p></blockquote>' +
      '<img src="/media/0123456789abcdef0123456789abcdef.webp" alt="Chart"><p>Line<br>break</p><hr><pre><code>code</code></pre>';
    expect(sanitizeHtml(tiptap)).toBe(tiptap);
  });
});
