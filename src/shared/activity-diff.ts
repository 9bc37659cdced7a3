/**
 * What one admin change did, field by field: the activity log keeps the record before and after the
 * change (src/server/modules/activity); this compares them for the "Show changes" view. Pure, and every
 * value comes out as plain text (the page prints it as text, never as HTML: an article's content shows
 * its tags, it does not render them).
 *
 * Content records are flat: diffRecords compares them field by field. A site-wide document (the site
 * texts, the chat settings…) is one nested value: diffFields walks it down to the fields its editing form
 * shows and names each change with the form's labels ("Hero › Headline"), so a save that changed one
 * headline lists that headline, not every section.
 */
import { stableJson } from './stable-json';

export interface FieldChange {
  /** The field's name in the record ("shortText"), or its path in a document ("hero.headline", "testimonials.1.quote"). */
  field: string;
  /** The same for people ("Short text", "Hero › Headline"). */
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

/** One field's change, or undefined when its two values say the same ("" and null are both nothing). */
function fieldChange(field: string, label: string, a: unknown, b: unknown, words?: ValueWords): FieldChange | undefined {
  if (stableJson(a) === stableJson(b)) return undefined;
  const beforeText = valueAsText(words ? named(a, words) : a);
  const afterText = valueAsText(words ? named(b, words) : b);
  if (beforeText === afterText) return undefined;
  const kind = beforeText === undefined ? 'added' : afterText === undefined ? 'removed' : 'changed';
  const change: FieldChange = { field, label, kind, before: beforeText, after: afterText };
  const excerpt = beforeText !== undefined && afterText !== undefined ? changeExcerpt(beforeText, afterText) : undefined;
  return excerpt ? { ...change, excerpt } : change;
}

/**
 * The fields that differ between two versions of a record (null for "did not exist": a creation or a
 * deletion lists every field it had). Fields keep the record's own order, new ones last.
 */
export function diffRecords(before: unknown, after: unknown): FieldChange[] {
  const from = isRecord(before) ? before : {};
  const to = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter((f) => !BOOKKEEPING.has(f));
  return fields.flatMap((field) => fieldChange(field, fieldLabel(field), from[field], to[field]) ?? []);
}

// ---------------------------------------------------------------------------------------------------------
// Documents: nested values named as their editing form names them

/** Between the parts of a label: "Hero › Headline", "Testimonials › Testimonial 2 › Quote". */
export const LABEL_SEPARATOR = ' › ';

/** Words for stored codes ('at-start' → "Before the first question"), as the form's options say them. */
export type ValueWords = Readonly<Record<string, string>>;

/**
 * How an editing form names a document's fields, key by key in the form's order:
 * - a string: the field's label ("Headline"); '' when the group's label names the field itself (a day's
 *   "open" checkbox is labelled with the day);
 * - `{ label, words }`: a field whose stored codes the form shows in words (a list of codes: each in words;
 *   yes/no as `true` and `false`);
 * - `{ label, fields }`: a group ("Hero") whose label leads those of its fields;
 * - `{ label?, item, fields }`: a list of groups, each named by its position ("Testimonial 2"); `fields` may
 *   depend on the item (a quick reply's value is a "Link" or a "Message sent").
 * Keys the names leave out are still compared, named from the key ("legalName" → "Legal name").
 */
export type FieldNames = { readonly [key: string]: FieldName };
export type FieldName =
  | string
  | { readonly label: string; readonly words: ValueWords }
  | { readonly label: string; readonly fields: FieldNames }
  | { readonly label?: string; readonly item: string; readonly fields: FieldNames | ((item: Record<string, unknown>) => FieldNames) };

const named = (value: unknown, words: ValueWords): unknown =>
  Array.isArray(value) ? value.map((v) => named(v, words)) : typeof value === 'string' || typeof value === 'boolean' ? (words[String(value)] ?? value) : value;

const asRecord = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});

/** A key the names leave out: a nested record is still walked, a list of records item by item. */
function unnamed(key: string, a: unknown, b: unknown): FieldName {
  const label = fieldLabel(key);
  if (isRecord(a) || isRecord(b)) return { label, fields: {} };
  const list = [...(Array.isArray(a) ? a : []), ...(Array.isArray(b) ? b : [])];
  if (list.length > 0 && list.every(isRecord)) return { label, item: 'Item', fields: {} };
  return label;
}

function walk(from: Record<string, unknown>, to: Record<string, unknown>, names: FieldNames, path: string[], labels: string[], out: FieldChange[]) {
  const keys = [...new Set([...Object.keys(names), ...Object.keys(from), ...Object.keys(to)])].filter((k) => !BOOKKEEPING.has(k));
  for (const key of keys) {
    const a = from[key];
    const b = to[key];
    if (stableJson(a) === stableJson(b)) continue;
    const name = names[key] ?? unnamed(key, a, b);
    const at = [...path, key];
    if (typeof name === 'string' || 'words' in name) {
      const label = [...labels, typeof name === 'string' ? name : name.label].filter(Boolean).join(LABEL_SEPARATOR);
      const change = fieldChange(at.join('.'), label, a, b, typeof name === 'string' ? undefined : name.words);
      if (change) out.push(change);
    } else if ('item' in name) {
      const left = Array.isArray(a) ? a : [];
      const right = Array.isArray(b) ? b : [];
      const listLabels = name.label ? [...labels, name.label] : labels;
      for (let i = 0; i < Math.max(left.length, right.length); i++) {
        const x = asRecord(left[i]);
        const y = asRecord(right[i]);
        const fields = typeof name.fields === 'function' ? name.fields(i < right.length ? y : x) : name.fields;
        walk(x, y, fields, [...at, String(i)], [...listLabels, `${name.item} ${i + 1}`], out);
      }
    } else {
      walk(asRecord(a), asRecord(b), name.fields, at, [...labels, name.label], out);
    }
  }
}

/**
 * The fields that differ between two versions of a document, each named with the labels of its form
 * ("Hero › Headline"), in the form's order. Pass both versions complete (a document never saved as its
 * defaults): an absent value reads as "nothing" here.
 */
export function diffFields(before: unknown, after: unknown, names: FieldNames): FieldChange[] {
  const out: FieldChange[] = [];
  walk(asRecord(before), asRecord(after), names, [], [], out);
  return out;
}
