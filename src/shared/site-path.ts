/**
 * The one rule for "a path on this site" (links, redirects after sign-in, recorded pages). Browsers treat a
 * backslash as a slash and drop tabs and line breaks from URLs, so "/\evil.test" and "/\t/evil.test" open
 * another site just like "//evil.test": all of them are refused. Pure and tiny: the chat widget ships it too.
 */
import { isCleanLine } from './text-controls';

export const MAX_PATH_LENGTH = 512;

/** The path when `value` is one on this site (trimmed), else undefined. */
export function sanitizeSitePath(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  if (!v.startsWith('/') || v.startsWith('//') || v.includes('\\') || v.length > MAX_PATH_LENGTH) return undefined;
  return isCleanLine(v) ? v : undefined;
}

/** Whether `value` is, exactly as written, a path on this site. */
export const isSitePath = (value: string): boolean => sanitizeSitePath(value) === value;
