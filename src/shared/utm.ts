/**
 * What a UTM value may be, wherever one is kept (page-view sources, lead attribution): letters, digits,
 * "-", "_", "." and spaces, at most UTM_MAX_LENGTH characters. Anything else is dropped, not repaired: a
 * real campaign tag ("spring_sale", "newsletter", "LinkedIn Ads") fits, while a URL, markup or a sentence
 * meant for the admin who reads the overview does not. Pure: no server imports.
 */

export const UTM_MAX_LENGTH = 100;

const SAFE_UTM = new RegExp(`^[\\p{L}\\p{N} ._-]{1,${UTM_MAX_LENGTH}}$`, 'u');

/** The value trimmed when it is a safe UTM value, else undefined (dropped). */
export function safeUtm(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return SAFE_UTM.test(trimmed) ? trimmed : undefined;
}

/**
 * The bucket past a cap: unknown pages, and sources or campaigns beyond the day's limit. Parentheses occur
 * in no path the site counts (they start with "/") and in no safe UTM value, so it names nothing real.
 */
export const OTHER = '(other)';
