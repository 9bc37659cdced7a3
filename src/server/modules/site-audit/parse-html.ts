/**
 * The one way the audit parses a stranger's HTML (the crawler's discovery and the checks): cheerio's
 * parser slows down steeply with nesting depth (100,000 nested elements: over a minute), so a page is
 * parsed only up to the point where it nests deeper than browsers go (checks/nesting.ts).
 */
import { load, type CheerioAPI } from 'cheerio';
import { nestingCut } from './checks/nesting';

export function parseHtml(html: string): { $: CheerioAPI; readUpTo: number | undefined } {
  const readUpTo = nestingCut(html);
  return { $: load(readUpTo === undefined ? html : html.slice(0, readUpTo)), readUpTo };
}
