/**
 * The content file format, version 1 (docs/content-format.md): one JSON document holding every public
 * entity with the seed spec's field names. `npm run content:export` writes it, `content:import` and the
 * first-run demo seed read it, and the Firebase importer produces it. Cross-record rules that need the
 * whole file or the database (unique ids, references) live in the server's content-transfer module.
 */
import { describeIssue, z } from './zod';
import { articleFields, demoFields, faqFields, packageFields, serviceFields } from './schemas/catalog';
import { IMAGE_BASE64_CHARS, imageUrl, LIMITS, MEDIA_ID_PATTERN, order, recordId, requiredText, text } from './schemas/fields';
import { SEO_LIMITS, seoUrl } from './seo';
import { siteContentSchema } from './site-content';

export const CONTENT_FORMAT = 'agency-site-content';
export const CONTENT_FORMAT_VERSION = 1;

// ---------------------------------------------------------------------------------------------------------
// Field names (seed section 5, "Database client rules")

/** Why `name` is not an acceptable field name under the seed's database rules, or undefined when it is. */
export function fieldNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'field names must not be empty';
  if (name.startsWith('__') && name.endsWith('__')) return 'field names must not both begin and end with "__"';
  if (/[~*/[\]]/.test(name)) return 'field names must not contain ~ * / [ or ]';
  return undefined;
}

export interface PathProblem {
  path: (string | number)[];
  message: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** Every key, at any depth of objects and arrays, that breaks the field-name rule. */
export function findFieldNameProblems(value: unknown, path: (string | number)[] = []): PathProblem[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => findFieldNameProblems(item, [...path, i]));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const problem = fieldNameProblem(key);
    return problem ? [{ path: [...path, key], message: problem }] : findFieldNameProblems(child, [...path, key]);
  });
}

/**
 * Keys of `input` that a (non-strict) schema dropped from its `output`: the fields it does not know.
 * Zod objects strip unknown keys, so comparing the two finds them at any depth.
 */
function droppedKeys(input: unknown, output: unknown, path: (string | number)[] = []): PathProblem[] {
  if (Array.isArray(input) && Array.isArray(output)) {
    return input.flatMap((item, i) => droppedKeys(item, output[i], [...path, i]));
  }
  if (!isPlainObject(input) || !isPlainObject(output)) return [];
  return Object.entries(input).flatMap(([key, child]) =>
    key in output ? droppedKeys(child, output[key], [...path, key]) : [{ path: [...path, key], message: 'unknown field' }],
  );
}

/** Problems of a site-content document: bad field names, unknown fields, and siteContentSchema's own rules. */
export function siteContentProblems(value: unknown): PathProblem[] {
  if (!isPlainObject(value)) return [{ path: [], message: 'must be an object' }];
  const nameProblems = findFieldNameProblems(value);
  const parsed = siteContentSchema.safeParse(value, { error: describeIssue });
  if (!parsed.success) {
    return [...nameProblems, ...parsed.error.issues.map((i) => ({ path: i.path as (string | number)[], message: i.message }))];
  }
  const reported = new Set(nameProblems.map((p) => formatPath(p.path)));
  return [...nameProblems, ...droppedKeys(value, parsed.data).filter((p) => !reported.has(formatPath(p.path)))];
}

// ---------------------------------------------------------------------------------------------------------
// Dates: ISO strings, or the timestamp objects a Firestore export writes

export type TimestampInput = string | Date | { _seconds: number; _nanoseconds?: number } | { seconds: number; nanoseconds?: number };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function fromSeconds(seconds: unknown, nanos: unknown): Date | undefined {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return undefined;
  const n = nanos === undefined ? 0 : nanos;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n >= 1e9) return undefined;
  return new Date(seconds * 1000 + Math.floor(n / 1e6));
}

/** The instant a stored date stands for, or undefined when `value` is not a date this format accepts. */
export function coerceTimestamp(value: unknown): Date | undefined {
  let date: Date | undefined;
  if (value instanceof Date) date = value;
  else if (typeof value === 'string') date = ISO_DATE.test(value.trim()) ? new Date(value.trim()) : undefined;
  else if (isPlainObject(value)) {
    const keys = Object.keys(value).sort().join(',');
    if (keys === '_nanoseconds,_seconds' || keys === '_seconds') date = fromSeconds(value._seconds, value._nanoseconds);
    else if (keys === 'nanoseconds,seconds' || keys === 'seconds') date = fromSeconds(value.seconds, value.nanoseconds);
  }
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

const TIMESTAMP_MESSAGE = 'must be an ISO 8601 date-time such as "2025-03-14T09:30:00.000Z" (or a Firestore timestamp object)';

const timestamp = z
  .custom<TimestampInput>((v) => coerceTimestamp(v) !== undefined, { message: TIMESTAMP_MESSAGE })
  .transform((v) => coerceTimestamp(v)!);

// ---------------------------------------------------------------------------------------------------------
// Field types

export { MEDIA_ID_PATTERN, mediaIdFromUrl, mediaUrl, LIMITS } from './schemas/fields';

// ---------------------------------------------------------------------------------------------------------
// Records

const timestamps = { createdAt: timestamp.optional(), updatedAt: timestamp.optional() };

export const serviceRecordSchema = z.strictObject({ id: recordId, ...serviceFields, order, ...timestamps });

export const demoRecordSchema = z.strictObject({ id: recordId, ...demoFields, order, ...timestamps });

export const packageRecordSchema = z.strictObject({ id: recordId, ...packageFields, order, ...timestamps });

export const articleRecordSchema = z.strictObject({ id: recordId, ...articleFields, ...timestamps });

export const faqRecordSchema = z.strictObject({ id: recordId, ...faqFields, order, createdAt: timestamp.optional() });

export const landingPageConfigSchema = z.strictObject({
  // Unknown block names are kept and skipped when rendering (seed: "Unknown block names are skipped").
  blockOrder: z.array(z.string().min(1).max(40)).max(40),
  hidden: z.array(z.string().min(1).max(40)).max(40).default([]),
});

export const seoRecordSchema = z.strictObject({
  path: z
    .string()
    .max(300)
    .regex(/^\/[^\s?#]*$/, 'must be a site path starting with "/" (no spaces, query or fragment)'),
  title: text(SEO_LIMITS.title).default(''),
  description: text(SEO_LIMITS.description).default(''),
  keywords: text(SEO_LIMITS.keywords).default(''),
  image: imageUrl.default(''),
  url: seoUrl.default(''),
  // Wider than the admin's choice (website, article): a file may carry other Open Graph types.
  type: text(40).default('website'),
  author: text(SEO_LIMITS.author).default(''),
  publishedTime: timestamp.nullable().default(null),
  modifiedTime: timestamp.nullable().default(null),
  // null (or left out, as in files written before it existed): the title decides (decision 030).
  siteNameAfterTitle: z.boolean({ error: 'must be true, false or null' }).nullable().default(null),
});

const policyPageSchema = z.strictObject({
  html: requiredText(LIMITS.policyHtml),
  updatedAt: timestamp.optional(),
});

export const mediaRecordSchema = z.strictObject({
  id: z.string().regex(MEDIA_ID_PATTERN, 'must be the 32-hex-digit content hash of the image'),
  contentType: z.literal('image/webp', { error: 'must be "image/webp"' }),
  width: z.number().int().min(1).max(10_000),
  height: z.number().int().min(1).max(10_000),
  alt: text(300).default(''),
  // Base64 of at most LIMITS.imageBytes bytes.
  data: z.base64({ error: 'must be base64-encoded image bytes' }).max(IMAGE_BASE64_CHARS),
});

/** A free-form object checked by the field-name rule and siteContentSchema (which also checks lat/long). */
const siteContentDocument = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  for (const p of siteContentProblems(value)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
});

const section = <T extends z.ZodType>(record: T) => z.array(record).max(LIMITS.records).optional();

export const contentBundleSchema = z.strictObject({
  format: z.literal(CONTENT_FORMAT),
  version: z.literal(CONTENT_FORMAT_VERSION),
  exportedAt: timestamp.optional(),
  services: section(serviceRecordSchema),
  demos: section(demoRecordSchema),
  packages: section(packageRecordSchema),
  articles: section(articleRecordSchema),
  faqs: section(faqRecordSchema),
  landingPageConfig: landingPageConfigSchema.optional(),
  siteContent: siteContentDocument.optional(),
  seo: section(seoRecordSchema),
  pages: z.strictObject({ privacy: policyPageSchema.optional(), terms: policyPageSchema.optional() }).optional(),
  media: section(mediaRecordSchema),
});

/** What a file may contain (dates as strings or timestamp objects, optional fields omitted). */
export type ContentBundleInput = z.input<typeof contentBundleSchema>;
/** The validated content: dates as Date, defaults filled in. */
export type ContentBundle = z.output<typeof contentBundleSchema>;

/** The order sections appear in the file and in problem reports. */
export const BUNDLE_SECTIONS = [
  'format',
  'version',
  'exportedAt',
  'services',
  'demos',
  'packages',
  'articles',
  'faqs',
  'landingPageConfig',
  'siteContent',
  'seo',
  'pages',
  'media',
] as const;

// ---------------------------------------------------------------------------------------------------------
// Messages

/** `services[2].benefits[0]`, or `siteContent["odd key"]` for keys that are not plain identifiers. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_$][\w$]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out || '(file)';
}

export { describeIssue } from './zod';
