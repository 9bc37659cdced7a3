/**
 * Small text helpers the site-audit checks share (issue 22). Everything quoted from the audited site goes
 * through `quote`/`cutText`: evidence is plain text, so these only trim and cut, they never escape or build
 * markup (the report escapes on output like any other text).
 */

export const KB = 1024;
export const MB = 1024 * KB;

/** The longest quoted value in evidence, in characters. */
export const QUOTE_MAX = 160;
/** How many listed items a check shows before "and N more". */
export const LIST_MAX = 8;

// Control characters and bidi overrides would garble or disguise a quoted value when shown.
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Characters as a reader counts them (an emoji is one), not UTF-16 units. */
export function charCount(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/** The first `max` characters of `text`, never splitting an emoji. */
function firstChars(text: string, max: number): string {
  let units = 0;
  for (let chars = 0; chars < max && units < text.length; chars++) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, units);
}

/** White space collapsed, invisible characters dropped, trimmed. */
export function tidy(text: string): string {
  return text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
}

/** A value from the site, tidied and cut to `max` characters with "…" when longer. */
export function cutText(text: string, max: number = QUOTE_MAX): string {
  // Only the start is ever shown, so a 5 MB attribute is not tidied whole; what was left off still gets "…".
  const readUpTo = max * 4 + 64;
  const clean = tidy(text.length > readUpTo ? text.slice(0, readUpTo) : text);
  if (charCount(clean) > max) return `${firstChars(clean, max).trimEnd()}…`;
  return text.length > readUpTo ? `${clean}…` : clean;
}

/** A value from the site in single quotes, cut: 'Welcome to Smile Dental'. */
export function quote(text: string, max: number = QUOTE_MAX): string {
  return `'${cutText(text, max)}'`;
}

/** Words in a text (runs of non-space characters). */
export function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** "1 image", "3 images". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "850 bytes", "312 KB", "1.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return plural(Math.round(bytes), 'byte');
  if (bytes < MB) return `${Math.round(bytes / KB)} KB`;
  return `${(bytes / MB).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** "420 ms", "1.8 s". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`;
}

/** A length of time in the largest whole unit that fits: "5 minutes", "180 days", "1 year". */
export function formatDuration(seconds: number): string {
  const units: [number, string][] = [
    [365 * 86_400, 'year'],
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size) return plural(Math.floor(seconds / size), name);
  }
  return plural(Math.max(0, Math.floor(seconds)), 'second');
}

/** At most `max` lines, then "and N more" for the rest. */
export function limitLines(lines: readonly string[], max: number = LIST_MAX): string[] {
  if (lines.length <= max) return [...lines];
  return [...lines.slice(0, max), `and ${lines.length - max} more`];
}

const STATUS_TEXTS: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** "404 Not Found", "418". */
export function describeStatus(status: number): string {
  const text = STATUS_TEXTS[status];
  return text ? `${status} ${text}` : String(status);
}
