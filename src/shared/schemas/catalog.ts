/**
 * The editable fields of each content type (seed section 3), one definition for the admin form, the admin
 * Action and the content file. Ids, order and timestamps are not edited here: the server owns them.
 */
import { z } from '../zod';
import { imageUrl, LIMITS, price, recordId, requiredText, text, textList } from './fields';

export const serviceFields = {
  name: requiredText(LIMITS.name),
  picture: imageUrl.default(''),
  price,
  shortText: text(LIMITS.shortText).default(''),
  /** Sanitized HTML, shown on the service's detail page. */
  description: text(LIMITS.html).default(''),
  benefits: textList(30, 300).default([]),
};

export const demoFields = {
  name: requiredText(LIMITS.name),
  profilePicture: imageUrl.default(''),
  shortText: text(LIMITS.shortText).default(''),
  description: text(LIMITS.html).default(''),
  suitableFor: textList(30, 120).default([]),
};

export const packageFeatureSchema = z.strictObject({ title: requiredText(120), description: text(1000).default('') });

export const packageFields = {
  name: requiredText(LIMITS.name),
  description: text(LIMITS.html).default(''),
  picture: imageUrl.default(''),
  shortText: text(LIMITS.shortText).default(''),
  priceSetup: price,
  priceMonthly: price,
  includedServiceIds: z.array(recordId).max(100).default([]),
  features: z.array(packageFeatureSchema).max(30).default([]),
  isActive: z.boolean().default(true),
};

export const articleFields = {
  /** /article/{slug}: same character rules as ids. */
  slug: recordId,
  title: requiredText(LIMITS.name),
  excerpt: text(1000).default(''),
  content: text(LIMITS.articleHtml).default(''),
  featuredImage: imageUrl.default(''),
  featuredImageAlt: text(300).default(''),
  authorName: text(120).default(''),
  authorImage: imageUrl.default(''),
  tags: textList(20, 50).default([]),
  published: z.boolean().default(false),
};

export const faqFields = {
  question: requiredText(300),
  /** Sanitized HTML. */
  answer: requiredText(20_000),
};

/** The editor's and the Action's schema per type: exactly these fields, nothing else. */
export const serviceSchema = z.strictObject(serviceFields);
export const demoSchema = z.strictObject(demoFields);
export const packageSchema = z.strictObject(packageFields);
export const articleSchema = z.strictObject(articleFields);
export const faqSchema = z.strictObject(faqFields);

export type ServiceValues = z.input<typeof serviceSchema>;
export type DemoValues = z.input<typeof demoSchema>;
export type PackageValues = z.input<typeof packageSchema>;
export type ArticleValues = z.input<typeof articleSchema>;
export type FaqValues = z.input<typeof faqSchema>;

/** Zod issues → messages by field path ("benefits.2"), the first per field. */
export function fieldErrorsByPath(issues: readonly { path: readonly PropertyKey[]; message: string; code?: string; keys?: readonly string[] }[]): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const issue of issues) {
    const paths = issue.code === 'unrecognized_keys' && issue.keys ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of paths) out[path.map(String).join('.') || 'form'] ??= issue.code === 'unrecognized_keys' ? 'This field cannot be set' : issue.message;
  }
  return out;
}
