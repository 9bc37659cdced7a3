import { SEO_DESCRIPTION_MAX, SEO_TITLE_MAX } from './constants';

/** Cut to `max` characters; when longer, the first `max - 3` plus "..." (seed: 60 → 57 + "..."). */
function cutForSnippet(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean);
  return chars.length > max ? `${chars.slice(0, max - 3).join('')}...` : clean;
}

export const cutSeoTitle = (title: string) => cutForSnippet(title, SEO_TITLE_MAX);
export const cutSeoDescription = (description: string) => cutForSnippet(description, SEO_DESCRIPTION_MAX);
