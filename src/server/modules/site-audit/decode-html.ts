/**
 * Whether a page's answer is HTML, and its text: the charset a byte-order mark, the Content-Type or a
 * <meta charset> in the first kilobyte names, else UTF-8. Never fatal: bytes that do not fit the charset
 * become U+FFFD, as in a browser.
 */

const HTML_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;
/** What a server that sends no Content-Type usually means by a page. */
const LOOKS_LIKE_HTML = /^\s*(?:<!doctype html|<html|<head|<body|<!--)/i;
const CHARSET_PARAM = /charset\s*=\s*["']?\s*([\w.:-]+)/i;
const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;
const SNIFF_BYTES = 1024;

export function isHtml(contentType: string | undefined, bytes: Buffer): boolean {
  if (contentType?.trim()) return HTML_TYPE.test(contentType);
  return LOOKS_LIKE_HTML.test(bytes.subarray(0, SNIFF_BYTES).toString('latin1'));
}

function byteOrderMark(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function metaCharset(bytes: Buffer): string | undefined {
  const label = META_CHARSET.exec(bytes.subarray(0, SNIFF_BYTES).toString('latin1'))?.[1];
  // A document that could be read as ASCII to find this is not UTF-16, whatever it says (HTML spec).
  return label && /^utf-?16/i.test(label) ? 'utf-8' : label;
}

function decoderFor(label: string): TextDecoder {
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('utf-8');
  }
}

export function decodeHtml(bytes: Buffer, contentType: string | undefined): string {
  const label = byteOrderMark(bytes) ?? CHARSET_PARAM.exec(contentType ?? '')?.[1] ?? metaCharset(bytes) ?? 'utf-8';
  return decoderFor(label).decode(bytes);
}
