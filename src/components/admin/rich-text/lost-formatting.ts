/**
 * Markup the sanitizer keeps but the visual editor cannot represent (tables, figure captions…): loading
 * such a text into the editor and changing it would drop that formatting. The field says so and offers
 * the HTML view instead. Browser only (DOMParser builds an inert document: nothing loads or runs).
 */
const LOST_IN_VISUAL_EDITOR: Record<string, string> = {
  table: 'tables',
  figcaption: 'picture captions',
  dl: 'definition lists',
  sub: 'subscript',
  sup: 'superscript',
  mark: 'highlights',
  small: 'small print',
  abbr: 'abbreviations',
  q: 'inline quotes',
  kbd: 'keyboard keys',
  ins: 'insertions',
  time: 'dates',
  cite: 'citations',
};

const SELECTOR = Object.keys(LOST_IN_VISUAL_EDITOR).join(',');

/** What the visual editor would drop from `html`, in words ("tables", "picture captions"); empty when nothing. */
export function formattingLostIn(html: string): string[] {
  if (!html.includes('<')) return [];
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const found = new Set([...doc.body.querySelectorAll(SELECTOR)].map((el) => LOST_IN_VISUAL_EDITOR[el.localName]!));
  return [...found];
}
