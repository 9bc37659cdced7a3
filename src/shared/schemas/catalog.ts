/**
 * The editable fields of each content type (seed section 3), one definition for the admin form, the admin
 * Action and the content file. Ids, order and timestamps are not edited here: the server owns them.
 */
import { z } from '../zod';
import { imageUrl, LIMITS, price, recordId, requiredText, TAG_MAX_LENGTH, TAG_PATTERN, text, textList, URL_SLUG_PATTERN } from './fields';

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

export const ARTICLE_SLUG_MAX = 120;
export const ARTICLE_TAGS_MAX = 20;
export const SLUG_MESSAGE = 'Use only letters, digits, - and _, starting with a letter or digit (it is the page’s address)';
export const TAG_MESSAGE = 'Start with a letter or digit; use letters, digits, spaces and & + # . ’ _ - only';
export const ALT_REQUIRED_MESSAGE = 'Describe the picture for people who cannot see it: required with a featured image';

/**
 * The article as an admin edits it. Stricter than the content file (articleFields), whose imports must keep
 * accepting what older exports hold: the slug may be left empty (the server makes one from the title) and
 * otherwise must work in /article/{slug}; tags must work in /articles?tag=; and a featured image needs its
 * alt text.
 */
function articleEditorSchema() {
  const slug = z
    .string()
    .trim()
    .max(ARTICLE_SLUG_MAX)
    .refine((s) => s === '' || URL_SLUG_PATTERN.test(s), SLUG_MESSAGE);
  const tag = z.string().trim().min(1).max(TAG_MAX_LENGTH).regex(TAG_PATTERN, TAG_MESSAGE);
  return z
    .strictObject({ ...articleFields, slug: slug.default(''), tags: z.array(tag).max(ARTICLE_TAGS_MAX).default([]) })
    .superRefine(
      (article, ctx) => {
        if (typeof article !== 'object' || article === null) return;
        const { featuredImage, featuredImageAlt, tags } = article as Record<string, unknown>;
        if (typeof featuredImage === 'string' && featuredImage.trim() !== '' && (typeof featuredImageAlt !== 'string' || featuredImageAlt.trim() === '')) {
          ctx.addIssue({ code: 'custom', path: ['featuredImageAlt'], message: ALT_REQUIRED_MESSAGE });
        }
        if (Array.isArray(tags)) {
          const seen = new Set<string>();
          tags.forEach((t, i) => {
            if (typeof t !== 'string') return;
            const key = t.trim().toLowerCase();
            if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['tags', i], message: 'This tag is already in the list' });
            seen.add(key);
          });
        }
      },
      // Also when a field rule failed, so every message shows at once: the values may be of any type here.
      { when: () => true },
    );
}

/** The editor's and the Action's schema per type: exactly these fields, nothing else. */
export const serviceSchema = z.strictObject(serviceFields);
export const demoSchema = z.strictObject(demoFields);
export const packageSchema = z.strictObject(packageFields);
export const articleSchema = articleEditorSchema();
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
