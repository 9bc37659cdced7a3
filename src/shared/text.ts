/** Text rules for cards and snippets (seed section 2 "Cards", section 9 "Text cuts"). */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Plain text of an HTML fragment: tags removed, common entities decoded, white space collapsed. */
export function stripHtml(html: string): string {
  // Most card texts are plain already; the regex passes below cost more than the test (measured per render).
  if (!/[<&]|[^\S ]|  |^ | $/.test(html)) return html;
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*|#39);/gi, (m, name: string) => {
      const lower = name.toLowerCase();
      if (lower in ENTITIES) return ENTITIES[lower]!;
      if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
      if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
      return m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Cut to `max` characters plus "..." when longer (card texts). */
export function cutText(text: string, max: number): string {
  // UTF-16 length is never below the code-point count: nothing to cut, and no array of every character.
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}...` : text;
}

/** A card's short text: HTML stripped, then cut. */
export function cardText(html: string, max: number): string {
  return cutText(stripHtml(html), max);
}

/** The first `count` words of the stripped content, with "..." when there were more. */
export function firstWords(html: string, count: number): string {
  const words = stripHtml(html).split(' ').filter(Boolean);
  return words.length > count ? `${words.slice(0, count).join(' ')}...` : words.join(' ');
}

/** Shown items plus how many more there are ("+3 more"). */
export function takeWithRest<T>(items: readonly T[], shown: number): { shown: T[]; rest: number } {
  return { shown: items.slice(0, shown), rest: Math.max(0, items.length - shown) };
}

/** Reading time in whole minutes (at least 1) at 220 words a minute. */
export function readingMinutes(html: string): number {
  const words = stripHtml(html).split(' ').filter(Boolean).length;
  return Math.max(1, Math.round(words / 220));
}

/** A readable, URL-safe id made from a name ("AI Lead Outreach!" → "ai-lead-outreach"). */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return slug || 'item';
}
