/**
 * What the rich-text editor's link and image dialogs accept. The server's sanitizer is the real guard
 * (src/server/html/sanitize.ts drops any other scheme on save); these rules give the admin a clear message
 * at the moment of typing instead of a link that silently loses its address when saved.
 */

export type Checked = { ok: true; value: string } | { ok: false; message: string };

/** A path on this site: "/services", "/article/x#top". Not "//host" (that is another site). */
const SITE_PATH = /^\/(?!\/)[^\s]*$/;
const WEB_URL = /^https?:\/\/[^\s/?#]+\.[^\s/?#]+[^\s]*$|^https?:\/\/localhost(?::\d+)?(?:[/?#][^\s]*)?$/i;
const MAILTO = /^mailto:[^\s@]+@[^\s@]+\.[^\s@]+(?:\?[^\s]*)?$/i;
const TEL = /^tel:\+?[0-9()./ -]{3,30}$/i;
const EMAIL = /^[^\s@:/]+@[^\s@/]+\.[^\s@/]+$/;
/** Schemes that run code or carry content instead of leading somewhere. */
const CODE_SCHEME = /^\s*(javascript|vbscript|data|blob|file):/i;
/** "example.com", "www.example.com/page": a host name without its scheme. */
const BARE_HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?::\d+)?(?:[/?#][^\s]*)?$/i;

export const LINK_RULE_MESSAGE = 'Enter a web address (https://…), a path on this site (/services), an email address or a phone number (tel:+1…).';

/**
 * The link address to store, or why it cannot be one. Adds what people usually leave out: "https://" in
 * front of "example.com", "mailto:" in front of an email address.
 */
export function checkLinkHref(input: string): Checked {
  const href = input.trim();
  if (href === '') return { ok: false, message: 'Enter the address the link goes to.' };
  if (href.length > 2048) return { ok: false, message: 'This address is too long (at most 2048 characters).' };
  const unsafe = CODE_SCHEME.exec(href)?.[1];
  if (unsafe) return { ok: false, message: `Links to ${unsafe.toLowerCase()}: addresses are not allowed. ${LINK_RULE_MESSAGE}` };
  if (SITE_PATH.test(href) || WEB_URL.test(href) || MAILTO.test(href) || TEL.test(href)) return { ok: true, value: href };
  if (EMAIL.test(href)) return { ok: true, value: `mailto:${href}` };
  if (BARE_HOST.test(href)) return { ok: true, value: `https://${href}` };
  return { ok: false, message: LINK_RULE_MESSAGE };
}

/** An image in HTML content: one of our files (a site path such as /media/….webp) or an http(s) address. */
export function checkImageSrc(input: string): Checked {
  const src = input.trim();
  if (src === '') return { ok: false, message: 'Enter the picture’s address, or choose one from the media library.' };
  if (src.length > 2048) return { ok: false, message: 'This address is too long (at most 2048 characters).' };
  if (SITE_PATH.test(src) || WEB_URL.test(src)) return { ok: true, value: src };
  return { ok: false, message: 'Use a picture from the media library (/media/…) or a web address starting with https://.' };
}

/** Alt text: required (people who cannot see the picture hear it), one line, at most 300 characters. */
export function checkImageAlt(input: string): Checked {
  const alt = input.replace(/\s+/g, ' ').trim();
  if (alt === '') return { ok: false, message: 'Describe the picture for people who cannot see it.' };
  if (alt.length > 300) return { ok: false, message: 'Keep the description under 300 characters.' };
  return { ok: true, value: alt };
}
