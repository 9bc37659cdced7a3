/**
 * The editable fields of each content type (seed section 3), one definition for the admin form, the admin
 * Action and the content file. Ids, order and timestamps are not edited here: the server owns them.
 */
import { z } from '../zod';
import { imageUrl, LIMITS, price, recordId, requiredText, TAG_MAX_LENGTH, TAG_PATTERN, text, textList, URL_SLUG_PATTERN } from './fields';

/** An alt text: what a picture shows, for people who cannot see it (the media library's limit). */
const altText = text(300).default('');

export const serviceFields = {
  name: requiredText(LIMITS.name),
  picture: imageUrl.default(''),
  pictureAlt: altText,
  price,
  shortText: text(LIMITS.shortText).default(''),
  /** Sanitized HTML, shown on the service's detail page. */
  description: text(LIMITS.html).default(''),
  benefits: textList(30, 300).default([]),
};

export const demoFields = {
  name: requiredText(LIMITS.name),
  profilePicture: imageUrl.default(''),
  profilePictureAlt: altText,
  shortText: text(LIMITS.shortText).default(''),
  description: text(LIMITS.html).default(''),
  suitableFor: textList(30, 120).default([]),
};

export const packageFeatureSchema = z.strictObject({ title: requiredText(120), description: text(1000).default('') });

export const packageFields = {
  name: requiredText(LIMITS.name),
  description: text(LIMITS.html).default(''),
  picture: imageUrl.default(''),
  pictureAlt: altText,
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
  featuredImageAlt: altText,
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
export const ALT_REQUIRED_MESSAGE = 'Describe the picture for people who cannot see it: required with a picture';

/**
 * Each type's picture fields and the field holding their alt text (decision 033: one alt text per picture,
 * kept on its media item; the record's own field only for a picture at an outside address). An article's
 * author picture is decorative (the name is beside it) and has none.
 */
export const PICTURE_ALT_FIELDS = {
  service: [{ picture: 'picture', alt: 'pictureAlt' }],
  demo: [{ picture: 'profilePicture', alt: 'profilePictureAlt' }],
  package: [{ picture: 'picture', alt: 'pictureAlt' }],
  article: [{ picture: 'featuredImage', alt: 'featuredImageAlt' }],
  faq: [],
} as const satisfies Record<string, readonly { picture: string; alt: string }[]>;

type PictureAltField = { readonly picture: string; readonly alt: string };

/** The editors' rule wherever a picture is chosen: a picture needs its alt text. */
function requireAltWithPicture(values: Record<string, unknown>, pairs: readonly PictureAltField[], ctx: z.RefinementCtx) {
  for (const { picture, alt } of pairs) {
    const src = values[picture];
    const text = values[alt];
    if (typeof src === 'string' && src.trim() !== '' && (typeof text !== 'string' || text.trim() === '')) {
      ctx.addIssue({ code: 'custom', path: [alt], message: ALT_REQUIRED_MESSAGE });
    }
  }
}

/** A type's editor schema: its fields, exactly, and the alt-text rule (checked even when a field failed). */
function editorSchema<S extends z.ZodRawShape>(shape: S, pairs: readonly PictureAltField[]) {
  return z.strictObject(shape).superRefine(
    (values, ctx) => {
      if (typeof values === 'object' && values !== null) requireAltWithPicture(values as Record<string, unknown>, pairs, ctx);
    },
    { when: () => true },
  );
}

/**
 * The article as an admin edits it. Stricter than the content file (articleFields), whose imports must keep
 * accepting what older exports hold: the slug may be left empty (the server makes one from the title) and
 * otherwise must work in /article/{slug}; tags must work in /articles?tag=; and a featured image needs its
 * alt text (as every picture an editor chooses does).
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
        requireAltWithPicture(article as Record<string, unknown>, PICTURE_ALT_FIELDS.article, ctx);
        const { tags } = article as Record<string, unknown>;
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
export const serviceSchema = editorSchema(serviceFields, PICTURE_ALT_FIELDS.service);
export const demoSchema = editorSchema(demoFields, PICTURE_ALT_FIELDS.demo);
export const packageSchema = editorSchema(packageFields, PICTURE_ALT_FIELDS.package);
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
