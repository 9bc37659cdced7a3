/**
 * What one admin change did, field by field: the activity log keeps the record before and after the
 * change (src/server/modules/activity); this compares them for the "Show changes" view. Pure, and every
 * value comes out as plain text (the page prints it as text, never as HTML: an article's content shows
 * its tags, it does not render them).
 */
import { stableJson } from './stable-json';

export interface FieldChange {
  /** The field's name in the record ("shortText"). */
  field: string;
  /** The same for people ("Short text"). */
  label: string;
  kind: 'added' | 'removed' | 'changed';
  /** The value before, as text; undefined when the field had none. */
  before: string | undefined;
  after: string | undefined;
  /**
   * For a long text changed in one place (an article's content): only the part that changed, with some
   * context on each side and "…" where text was left out. Undefined when the whole value is short.
   */
  excerpt?: { before: string; after: string } | undefined;
}

/** Bookkeeping the server changes on every save: listing it would hide the real change. */
const BOOKKEEPING = new Set(['updatedAt', 'createdAt']);

const FIELD_LABELS: Record<string, string> = {
  id: 'URL name (id)',
  isActive: 'Active',
  faqs: 'FAQs',
  seo: 'SEO',
  priceSetup: 'Setup price',
  priceMonthly: 'Monthly price',
  includedServiceIds: 'Included services',
  featuredImageAlt: 'Featured image alt text',
};

/** "shortText" → "Short text", "priceSetup" → "Price setup". */
export function fieldLabel(field: string): string {
  if (FIELD_LABELS[field]) return FIELD_LABELS[field];
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The label inside a sentence ("Updated service “X”: short text, URL name"): acronyms keep their capitals. */
export function fieldLabelInSentence(field: string): string {
  const label = fieldLabel(field);
  return /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);


/**
 * A value as text: strings as they are, numbers and yes/no as words, a list of words one per line, and
 * anything structured as indented JSON. Nothing (null, undefined, '', []) is undefined.
 */
export function valueAsText(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.map(String).join('\n');
  }
  return JSON.stringify(value, null, 2);
}

/** Texts shorter than this are shown whole. */
const EXCERPT_FROM = 400;
/** Characters of unchanged text kept on each side of a change. */
const EXCERPT_CONTEXT = 100;

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The changed middle of two long texts (their common start and end cut to some context), or undefined. */
export function changeExcerpt(before: string, after: string): FieldChange['excerpt'] {
  if (Math.max(before.length, after.length) < EXCERPT_FROM) return undefined;
  const shorter = Math.min(before.length, after.length);
  let same = 0;
  while (same < shorter && before[same] === after[same]) same++;
  let sameEnd = 0;
  while (sameEnd < shorter - same && before[before.length - 1 - sameEnd] === after[after.length - 1 - sameEnd]) sameEnd++;
  let start = Math.max(0, same - EXCERPT_CONTEXT);
  // Never cut a character written with two UTF-16 units (emoji) in half.
  if (start > 0 && isLowSurrogate(before.charCodeAt(start))) start--;
  const cut = (text: string) => {
    let end = Math.min(text.length, text.length - sameEnd + EXCERPT_CONTEXT);
    if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
    return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  };
  const excerpt = { before: cut(before), after: cut(after) };
  return excerpt.before === before && excerpt.after === after ? undefined : excerpt;
}

/**
 * The fields that differ between two versions of a record (null for "did not exist": a creation or a
 * deletion lists every field it had). Fields keep the record's own order, new ones last.
 */
export function diffRecords(before: unknown, after: unknown): FieldChange[] {
  const from = isRecord(before) ? before : {};
  const to = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter((f) => !BOOKKEEPING.has(f));
  return fields.flatMap((field): FieldChange[] => {
    const a = from[field];
    const b = to[field];
    if (stableJson(a) === stableJson(b)) return [];
    const beforeText = valueAsText(a);
    const afterText = valueAsText(b);
    if (beforeText === afterText) return []; // e.g. null and '' both mean "nothing"
    const kind = beforeText === undefined ? 'added' : afterText === undefined ? 'removed' : 'changed';
    const change: FieldChange = { field, label: fieldLabel(field), kind, before: beforeText, after: afterText };
    const excerpt = beforeText !== undefined && afterText !== undefined ? changeExcerpt(beforeText, afterText) : undefined;
    return [excerpt ? { ...change, excerpt } : change];
  });
}
