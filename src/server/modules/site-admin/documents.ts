/**
 * The five kinds of site-wide document an admin edits, described once each for the write engine
 * (service.ts): where a document is stored, how input is validated into its stored form, which cached
 * pages show it, and how a change reads in the activity log. Values are kept in their JSON form (dates as
 * ISO strings) so what the activity log records is exactly what a revert writes back.
 */
import { configFromLayout, LANDING_BLOCK_LABELS, LANDING_BLOCKS, landingLayoutSchema, type LandingBlock } from '../../../shared/landing';
import { isSeoEditablePath, SEO_DEFAULTS_PATH } from '../../../shared/page-seo';
import { seoEntrySchema, type SeoEntry } from '../../../shared/seo';
import { documentFieldErrors, type DocumentType } from '../../../shared/site-documents';
import { siteContentSchema, type SiteContent } from '../../../shared/site-content';
import { chatSettingsSchemaFor, DEFAULT_CHAT_SETTINGS, legacyChatTimeZone, withoutLegacyTimeZone, type ChatSettings } from '../../../shared/chat';
import { DEFAULT_GENERAL_SETTINGS, GENERAL_SETTINGS_KEY, generalSettingsSchema, type GeneralSettings } from '../../../shared/general-settings';
import { config } from '../../config';
import { CACHE_TAGS, type CacheTag } from '../../cache/tags';
import { CHAT_SETTINGS_KEY } from '../chat/settings';
import { ContentError, invalid } from '../content/errors';
import { LANDING_CONFIG_KEY, SITE_CONTENT_KEY } from '../site/service';
import {
  deleteConfigRow,
  deleteSeoRow,
  putConfigRow,
  putSeoRow,
  readConfigRow,
  readSeoRow,
  type Executor,
  type SeoRowValues,
  type StoredRow,
} from './repository';
import { stableJson } from '../../../shared/stable-json';

export interface DocumentKind {
  type: DocumentType;
  /** The document in a sentence: "the site texts", "the SEO of /services". */
  name(id: string): string;
  /** The cached public pages that show it (site texts and SEO: every page; the layout: the landing page). */
  tags: readonly CacheTag[];
  /** The stored form of valid input; INVALID with messages by field path otherwise. */
  parse(id: string, input: unknown): unknown;
  read(ex: Executor, id: string, lock?: boolean): Promise<StoredRow<unknown> | undefined>;
  /**
   * A logged value as `read` would return it once written: an entry logged before a field was added lacks
   * it, and must still match the document it left (the revert's check).
   */
  asRead(value: unknown): unknown;
  /** False when the row appeared since `exists` was read as false. */
  write(ex: Executor, id: string, value: unknown, at: Date, exists: boolean): Promise<boolean>;
  remove(ex: Executor, id: string): Promise<void>;
  /** What the activity log says about a save. */
  summary(id: string, before: unknown, after: unknown): string;
  /**
   * What a revert of a logged value cannot put back, said in its entry: a part the document no longer
   * holds (the chat settings' time zone, a general setting since decision 055).
   */
  revertNote?(logged: unknown): string | undefined;
}

function parseWith<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: Parameters<typeof documentFieldErrors>[0] } } }, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(documentFieldErrors(parsed.error.issues));
  return parsed.data;
}


const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Names of the top-level fields whose values differ, in `labels` order. */
function changedFields(before: unknown, after: unknown, labels: Record<string, string>): string[] {
  const b = asObject(before);
  const a = asObject(after);
  return Object.entries(labels)
    .filter(([key]) => stableJson(b[key]) !== stableJson(a[key]))
    .map(([, label]) => label);
}

const configDocument = (key: string) => ({
  asRead: (value: unknown) => value,
  read: (ex: Executor, id: string, lock?: boolean) => (id === key ? readConfigRow(ex, key, lock) : Promise.resolve(undefined)),
  write: (ex: Executor, _id: string, value: unknown, at: Date, exists: boolean) => putConfigRow(ex, key, value, at, exists),
  remove: (ex: Executor) => deleteConfigRow(ex, key),
});

// ---------------------------------------------------------------------------------------------------------
// Site texts

const SITE_TEXT_LABELS: Record<keyof SiteContent, string> = {
  siteName: 'site name',
  tagline: 'tagline',
  currency: 'currency',
  bookingUrl: 'booking URL',
  hero: 'hero',
  whatWeBuild: 'what we build',
  testimonials: 'testimonials',
  freeAuditCta: 'free audit call-to-action',
  cta: 'final call-to-action',
  footer: 'footer',
  business: 'business details',
};

export const siteContentDocument: DocumentKind = {
  type: 'site-content',
  name: () => 'the site texts',
  tags: [CACHE_TAGS.site],
  parse: (_id, input) => parseWith(siteContentSchema, input),
  ...configDocument(SITE_CONTENT_KEY),
  summary: (_id, before, after) => `Updated the site texts: ${changedFields(before ?? siteContentSchema.parse({}), after, SITE_TEXT_LABELS).join(', ') || 'saved as they were'}`,
};

// ---------------------------------------------------------------------------------------------------------
// Landing page layout

const blockLabels = (blocks: readonly string[]) => blocks.map((b) => LANDING_BLOCK_LABELS[b as LandingBlock] ?? b).join(', ');

function layoutSummary(before: unknown, after: unknown): string {
  const b = asObject(before);
  const a = asObject(after) as { blockOrder: string[]; hidden: string[] };
  if (stableJson(a.blockOrder) === stableJson(LANDING_BLOCKS) && a.hidden.length === 0) return 'Reset the landing page to the default order, every block shown';
  const beforeOrder = Array.isArray(b.blockOrder) ? b.blockOrder : LANDING_BLOCKS;
  const beforeHidden: unknown[] = Array.isArray(b.hidden) ? b.hidden : [];
  const parts: string[] = [];
  if (stableJson(beforeOrder) !== stableJson(a.blockOrder)) parts.push('new block order');
  const hid = a.hidden.filter((h) => !beforeHidden.includes(h));
  const shown = beforeHidden.filter((h): h is string => typeof h === 'string' && !a.hidden.includes(h));
  if (hid.length) parts.push(`hid ${blockLabels(hid)}`);
  if (shown.length) parts.push(`showed ${blockLabels(shown)}`);
  return `Changed the landing page layout: ${parts.join('; ') || 'saved as it was'}`;
}

export const landingDocument: DocumentKind = {
  type: 'landing',
  name: () => 'the landing page layout',
  tags: [CACHE_TAGS.landing],
  parse: (_id, input) => configFromLayout(parseWith(landingLayoutSchema, input)),
  ...configDocument(LANDING_CONFIG_KEY),
  summary: (_id, before, after) => layoutSummary(before, after),
};

// ---------------------------------------------------------------------------------------------------------
// SEO entries

/** An entry as stored and logged: the form's fields, dates as ISO instants or null. */
export type SeoValue = Omit<SeoEntry, 'publishedTime' | 'modifiedTime'> & { publishedTime: string | null; modifiedTime: string | null };

const SEO_FIELD_LABELS: Record<keyof SeoEntry, string> = {
  title: 'title',
  description: 'description',
  keywords: 'keywords',
  image: 'image',
  url: 'URL',
  type: 'type',
  author: 'author',
  publishedTime: 'published time',
  modifiedTime: 'modified time',
  siteNameAfterTitle: 'site name after the title',
};

/** The fields the site defaults entry does not use (they belong to each page), with their unset value. */
export const PAGE_ONLY_SEO_FIELDS = { url: '', type: 'website', publishedTime: '', modifiedTime: '', siteNameAfterTitle: null } as const;

const instant = (v: string) => (v ? new Date(v).toISOString() : null);

function parseSeo(path: string, input: unknown): SeoValue {
  if (!isSeoEditablePath(path)) throw new ContentError('NOT_FOUND', 'There is no public page with this path to set SEO for.');
  const entry = parseWith(seoEntrySchema, input);
  if (path === SEO_DEFAULTS_PATH) {
    const errors: Record<string, string> = {};
    for (const [field, unset] of Object.entries(PAGE_ONLY_SEO_FIELDS)) {
      if (entry[field as keyof typeof PAGE_ONLY_SEO_FIELDS] !== unset) errors[field] = 'The site defaults have none: set it on each page.';
    }
    if (Object.keys(errors).length) throw invalid(errors);
  }
  return { ...entry, publishedTime: instant(entry.publishedTime), modifiedTime: instant(entry.modifiedTime) };
}

const seoValueOf = (row: SeoRowValues): SeoValue => ({
  ...row,
  type: row.type as SeoValue['type'],
  publishedTime: row.publishedTime?.toISOString() ?? null,
  modifiedTime: row.modifiedTime?.toISOString() ?? null,
});

function seoRowOf(value: unknown): SeoRowValues {
  const v = value as SeoValue;
  const date = (s: string | null | undefined) => (s ? new Date(s) : null);
  return {
    title: v.title ?? '',
    description: v.description ?? '',
    keywords: v.keywords ?? '',
    image: v.image ?? '',
    url: v.url ?? '',
    type: v.type ?? 'website',
    author: v.author ?? '',
    publishedTime: date(v.publishedTime),
    modifiedTime: date(v.modifiedTime),
    // Entries logged before the choice existed have none: the title decides, as it did for them.
    siteNameAfterTitle: typeof v.siteNameAfterTitle === 'boolean' ? v.siteNameAfterTitle : null,
  };
}

export const seoDocument: DocumentKind = {
  type: 'seo',
  name: (path) => (path === SEO_DEFAULTS_PATH ? 'the SEO site defaults' : `the SEO of ${path}`),
  tags: [CACHE_TAGS.seo],
  parse: parseSeo,
  async read(ex, path, lock) {
    const row = await readSeoRow(ex, path, lock);
    return row && { value: seoValueOf(row.value), updatedAt: row.updatedAt };
  },
  asRead: (value) => seoValueOf(seoRowOf(value)),
  write: (ex, path, value, at, exists) => putSeoRow(ex, path, seoRowOf(value), at, exists),
  remove: (ex, path) => deleteSeoRow(ex, path),
  summary: (path, before, after) => {
    const changed = changedFields(before ?? seoValueOf(seoRowOf({})), after, SEO_FIELD_LABELS);
    return `Updated ${seoDocument.name(path)}: ${changed.join(', ') || 'saved as it was'}`;
  },
};

// ---------------------------------------------------------------------------------------------------------
// Chat settings

const CHAT_SETTING_LABELS: Record<Exclude<keyof ChatSettings, 'enabled'>, string> = {
  assistantName: 'assistant name',
  greeting: 'greeting',
  accentColor: 'accent colour',
  quickReplies: 'quick replies',
  askContact: 'when to ask for contact details',
  businessHours: 'business hours',
  offlineMessage: 'offline message',
  llm: 'AI answers',
};

function chatSettingsSummary(before: unknown, after: unknown): string {
  const b = before ?? DEFAULT_CHAT_SETTINGS;
  const onBefore = asObject(b).enabled !== false;
  const onAfter = asObject(after).enabled !== false;
  // Switching the widget on or off is the change that matters most: it leads the sentence.
  const parts = [...(onBefore !== onAfter ? [onAfter ? 'switched the chat on' : 'switched the chat off'] : []), ...changedFields(b, after, CHAT_SETTING_LABELS)];
  return `Updated the chat settings: ${parts.join(', ') || 'saved as they were'}`;
}

export const chatSettingsDocument: DocumentKind = {
  type: 'chat-settings',
  name: () => 'the chat settings',
  // Every public page carries the widget (or none): one tag drops them all, and the settings' memo.
  tags: [CACHE_TAGS.chat],
  // With AI answers on, the endpoint must be on LLM_API_ORIGIN: an admin picks the path, never where the key goes.
  parse: (_id, input) => parseWith(chatSettingsSchemaFor(config().LLM_API_ORIGIN), input),
  ...configDocument(CHAT_SETTINGS_KEY),
  // Entries logged before decision 055 carry the business hours' time zone, which the document no longer
  // holds: compared and restored without it (the zone is the general settings').
  asRead: withoutLegacyTimeZone,
  summary: (_id, before, after) => chatSettingsSummary(before, after),
  revertNote: (logged) => {
    const zone = legacyChatTimeZone(logged);
    return zone && ` (its time zone, ${zone}, was left out: the site's time zone is in Settings now)`;
  },
};

// ---------------------------------------------------------------------------------------------------------
// General settings

function generalSettingsSummary(before: unknown, after: unknown): string {
  const b = (before ?? DEFAULT_GENERAL_SETTINGS) as Partial<GeneralSettings>;
  const a = after as GeneralSettings;
  const parts: string[] = [];
  if (b.timeZone !== a.timeZone) parts.push(`time zone ${a.timeZone ?? 'not chosen (UTC)'}`);
  if (b.replyTo !== a.replyTo) parts.push(`replies go to ${a.replyTo || 'the contact email'}`);
  return `Updated the settings: ${parts.join(', ') || 'saved as they were'}`;
}

export const generalSettingsDocument: DocumentKind = {
  type: 'general-settings',
  name: () => 'the general settings',
  // The time zone is the chat's business-hours zone, and the settings' memo is dropped with the same tag.
  tags: [CACHE_TAGS.chat],
  parse: (_id, input) => parseWith(generalSettingsSchema, input),
  ...configDocument(GENERAL_SETTINGS_KEY),
  summary: (_id, before, after) => generalSettingsSummary(before, after),
};

export const DOCUMENT_KINDS: Record<DocumentType, DocumentKind> = {
  'site-content': siteContentDocument,
  landing: landingDocument,
  seo: seoDocument,
  'chat-settings': chatSettingsDocument,
  'general-settings': generalSettingsDocument,
};

export { seoValueOf };
