/**
 * The rules of a tag list being edited (the admin's tags field): what typing, pasting and picking a
 * suggestion add, and which suggestions match what is typed. A tag is kept once whatever its case, in the
 * spelling already in use, so the public tag filter (/articles?tag=, exact match) finds every article.
 */

/** Trimmed, inner runs of spaces made one. */
export const normalizeTag = (text: string) => text.trim().replace(/\s+/g, ' ');

const sameTag = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

export interface AddResult {
  tags: string[];
  /** The tags added (in the spelling used), in order. */
  added: string[];
  /** Parts that were already in the list. */
  duplicates: string[];
}

/**
 * Adds what was typed or pasted: comma-separated parts, each normalized, spelled as an existing suggestion
 * when one matches regardless of case, skipped when already in the list; at most `max` tags in all.
 */
export function addTags(tags: readonly string[], text: string, suggestions: readonly string[], max: number): AddResult {
  const next = [...tags];
  const added: string[] = [];
  const duplicates: string[] = [];
  for (const part of text.split(',').map(normalizeTag).filter(Boolean)) {
    if (next.some((t) => sameTag(t, part))) {
      duplicates.push(part);
      continue;
    }
    if (next.length >= max) break;
    const tag = suggestions.find((s) => sameTag(s, part)) ?? part;
    next.push(tag);
    added.push(tag);
  }
  return { tags: next, added, duplicates };
}

/** Suggestions not chosen yet that contain the query (any case), those starting with it first. */
export function matchingSuggestions(suggestions: readonly string[], query: string, chosen: readonly string[], limit = 8): string[] {
  const q = normalizeTag(query).toLocaleLowerCase();
  const open = suggestions.filter((s) => !chosen.some((c) => sameTag(c, s)));
  if (!q) return open.slice(0, limit);
  const starts = open.filter((s) => s.toLocaleLowerCase().startsWith(q));
  const contains = open.filter((s) => !s.toLocaleLowerCase().startsWith(q) && s.toLocaleLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}
