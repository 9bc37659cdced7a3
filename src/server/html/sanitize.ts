/**
 * Sanitizing admin-written HTML (article bodies, descriptions, FAQ answers, policies) before it is saved,
 * so pages can render it as HTML safely. An allow-list: formatting, headings, lists, links, images,
 * tables. Never scripts, styles, frames, forms, event handlers or javascript:/data: URLs.
 */
import DOMPurify from 'isomorphic-dompurify';

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup',
  'blockquote', 'q', 'cite', 'code', 'pre', 'kbd', 'abbr', 'time', 'span', 'div',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'a', 'img', 'figure', 'figcaption',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
]; // prettier-ignore

const ALLOWED_ATTR = [
  'href', 'title', 'target', 'rel', 'src', 'alt', 'width', 'height', 'loading',
  'colspan', 'rowspan', 'scope', 'datetime', 'start', 'reversed', 'cite',
]; // prettier-ignore

/** http(s), mailto:, tel: and relative URLs; every other scheme (javascript:, vbscript:, data:…) is dropped. */
const SAFE_URL = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: SAFE_URL,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

function secureLinksAndImages(node: Element) {
  if (node.nodeName === 'A') {
    const target = node.getAttribute('target');
    if (target !== null && target !== '_blank') node.removeAttribute('target');
    if (target === '_blank') {
      // A page opened in a new tab must not get a handle on ours (reverse tabnabbing).
      const rel = new Set((node.getAttribute('rel') ?? '').split(/\s+/).filter(Boolean));
      rel.add('noopener');
      rel.add('noreferrer');
      node.setAttribute('rel', [...rel].join(' '));
    }
  } else if (node.nodeName === 'IMG') {
    // DOMPurify lets data: URIs through on images; we only show our own files and http(s) images. Browsers
    // read "/\\host/x.png" as "//host/x.png" (another site, over the page's scheme): not one of ours either.
    const src = node.getAttribute('src');
    if (src !== null && !/^(?:https?:\/\/|\/(?![/\\]))/i.test(src.trim())) node.removeAttribute('src');
  }
}

/**
 * Safe HTML for storage. Idempotent: sanitizing the result again returns it unchanged, so an export
 * re-imported stays byte-identical. An <h1> becomes <h2>: the page's title is its only <h1>.
 */
export function sanitizeHtml(dirty: string): string {
  // The DOMPurify instance is shared with other server code: the hook lives only for this synchronous call.
  DOMPurify.addHook('afterSanitizeAttributes', secureLinksAndImages);
  let clean: string;
  try {
    clean = DOMPurify.sanitize(dirty, CONFIG).trim();
  } finally {
    DOMPurify.removeHook('afterSanitizeAttributes', secureLinksAndImages);
  }
  // On the serialized output, where a "<" in text or in an attribute value is always escaped: only real
  // <h1> tags match (done on the input, it also rewrote "<h1>" written inside a title attribute).
  return clean.replace(/<(\/?)h1(?=[\s>])/gi, '<$1h2');
}
