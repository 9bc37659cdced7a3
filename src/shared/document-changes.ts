/**
 * The activity log's view of a change to a site-wide document (the site texts, the landing page layout,
 * an SEO entry, the chat settings, the general settings) or a policy page. Both versions are first completed as the site shows
 * them — a document never saved is its defaults, so the first save of the site texts lists the one
 * headline it changed, not eleven sections — then compared field by field (activity-diff's diffFields)
 * and named as the editing forms name the fields ("Hero › Headline"). Pure: the page and the tests call it.
 *
 * The names repeat the forms' labels (src/features/admin-site-texts, admin-seo, admin-chat, admin-landing,
 * admin-policies, admin-settings); tests/unit/document-changes.test.ts fails when a form's label and its
 * name here part.
 */
import { diffFields, LABEL_SEPARATOR, type FieldChange, type FieldNames } from './activity-diff';
import { CHAT_ASK_CONTACT_LABELS, chatSettingsSchema, DEFAULT_CHAT_SETTINGS, legacyChatTimeZone, WEEKDAYS, type ChatSettings, type Weekday } from './chat';
import { DEFAULT_TIME_ZONE, formatInZone } from './dates';
import { resolveGeneralSettings, TIME_ZONE_NOT_CHOSEN } from './general-settings';
import { configFromLayout, LANDING_BLOCK_LABELS, layoutFromConfig } from './landing';
import { SEO_DEFAULTS_PATH } from './page-seo';
import { POLICY_ENTITY_TYPE, POLICY_TITLES, type PolicyKind } from './policies';
import { EMPTY_SEO_ENTRY } from './seo';
import { resolveSiteContent } from './site-content';

const buttonSection = (label: string): FieldNames[string] => ({ label, fields: { heading: 'Heading', text: 'Text', buttonLabel: 'Button' } });

/** The site texts editor (/admin/content): its sections, then the fields in each. */
export const SITE_TEXT_FIELDS: FieldNames = {
  siteName: 'Site name',
  tagline: 'Tagline',
  currency: 'Currency',
  bookingUrl: 'Booking URL',
  hero: { label: 'Hero', fields: { headline: 'Headline', rotatingPhrases: 'Rotating phrases', subheadline: 'Subheadline', bookCallLabel: 'Book-a-call button' } },
  whatWeBuild: {
    label: 'What we build',
    fields: { heading: 'Heading', painsIntro: 'Pains intro', pains: 'Pains', offerings: { item: 'Offering card', fields: { title: 'Title', text: 'Text' } } },
  },
  testimonials: { label: 'Testimonials', item: 'Testimonial', fields: { quote: 'Quote', name: 'Name', role: 'Role and company' } },
  freeAuditCta: buttonSection('Free audit call-to-action'),
  cta: buttonSection('Final call-to-action'),
  footer: { label: 'Footer', fields: { contactEmail: 'Contact email', socialLabel: 'Social link label', socialUrl: 'Social link URL', copyrightYear: 'Copyright year' } },
  business: { label: 'Business details', fields: { legalName: 'Legal name', latitude: 'Latitude', longitude: 'Longitude' } },
};

/** The landing page layout editor: the "Blocks" list in page order, and the blocks not "Shown". */
export const LANDING_LAYOUT_FIELDS: FieldNames = {
  blockOrder: { label: `Blocks${LABEL_SEPARATOR}Order`, words: LANDING_BLOCK_LABELS },
  hidden: { label: `Blocks${LABEL_SEPARATOR}Hidden`, words: LANDING_BLOCK_LABELS },
};

/** One SEO entry's editor (/admin/seo?page=…); the site defaults call their title "Site name in titles". */
export function seoFields(path: string): FieldNames {
  return {
    title: path === SEO_DEFAULTS_PATH ? 'Site name in titles' : 'Title',
    description: 'Description',
    keywords: 'Keywords',
    image: 'Image',
    author: 'Author',
    url: 'Canonical URL',
    type: { label: 'Type', words: { website: 'Website (a page of the site)', article: 'Article (dated writing, with author and times)' } },
    publishedTime: 'Published',
    modifiedTime: 'Modified',
    siteNameAfterTitle: 'Site name follows the title',
  };
}

const DAY_NAMES: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/** The chat settings editor (/admin/chat-settings/settings), its sub-forms included (quick replies, business hours). */
export const CHAT_SETTINGS_FIELDS: FieldNames = {
  enabled: 'Show the chat on every page',
  assistantName: 'Assistant name',
  greeting: 'Greeting',
  accentColor: 'Accent colour',
  quickReplies: {
    label: 'Quick replies',
    item: 'Quick reply',
    fields: (reply) => ({ kind: { label: 'Kind', words: { message: 'Sends a message', link: 'Opens a link' } }, label: 'Label', value: reply.kind === 'link' ? 'Link' : 'Message sent' }),
  },
  askContact: { label: 'Ask visitors for their contact details', words: CHAT_ASK_CONTACT_LABELS },
  businessHours: {
    label: 'Business hours',
    fields: {
      enabled: 'Use business hours',
      // Entries logged before decision 055 (the zone is a general setting now) still show its changes.
      timeZone: 'Time zone',
      days: {
        label: 'Opening hours',
        // A day's checkbox is labelled with the day: "Monday: “Closed” → “Open”".
        fields: Object.fromEntries(WEEKDAYS.map((day) => [day, { label: DAY_NAMES[day], fields: { open: { label: '', words: { true: 'Open', false: 'Closed' } }, from: 'Opens', to: 'Closes' } }])),
      },
    },
  },
  offlineMessage: 'Offline message',
  llm: { label: 'AI answers', fields: { enabled: 'Use AI answers', endpoint: 'Endpoint', model: 'Model' } },
};

/** The general settings editor (/admin/settings). */
export const GENERAL_SETTINGS_FIELDS: FieldNames = {
  timeZone: 'Time zone',
  replyTo: 'Replies to emails go to',
};

/** A policy's editor: its rich text ("Privacy Policy text"), and whether the page shows the built-in text. */
export const policyFields = (kind: PolicyKind): FieldNames => ({ html: `${POLICY_TITLES[kind]} text`, isDefault: 'Built-in text' });

const isPolicyKind = (id: string): id is PolicyKind => Object.hasOwn(POLICY_TITLES, id);

/** An instant as the activity page writes times ("14 Mar 2025, 09:30" in the site's zone); anything else as it is. */
function readableInstant(value: unknown, timeZone: string): unknown {
  if (typeof value !== 'string' || value === '') return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatInZone(date, timeZone, 'date-hour-minute');
}

interface ShownContext {
  /** The entry's other side (after for before, before for after). */
  other: unknown;
  /** The site's time zone, which the page names in its header. */
  timeZone: string;
}

interface DocumentView {
  names(id: string): FieldNames;
  /** The stored value (null: never saved, or removed back to the defaults) as the site shows it. */
  shown(value: unknown, context: ShownContext): unknown;
}

/**
 * The chat settings as the site showed them. An entry logged before decision 055 keeps its business hours'
 * zone (the schema no longer has it), and its "never saved" side the zone the defaults had then (UTC).
 */
function shownChatSettings(value: unknown, { other }: ShownContext): unknown {
  const withZone = (settings: ChatSettings, timeZone: string) => ({ ...settings, businessHours: { ...settings.businessHours, timeZone } });
  if (value === null || value === undefined) return legacyChatTimeZone(other) === undefined ? DEFAULT_CHAT_SETTINGS : withZone(DEFAULT_CHAT_SETTINGS, DEFAULT_TIME_ZONE);
  const parsed = chatSettingsSchema.safeParse(value);
  if (!parsed.success) return value;
  const zone = legacyChatTimeZone(value);
  return zone === undefined ? parsed.data : withZone(parsed.data, zone);
}

const DOCUMENT_VIEWS: Record<string, DocumentView> = {
  'site-content': { names: () => SITE_TEXT_FIELDS, shown: resolveSiteContent },
  landing: { names: () => LANDING_LAYOUT_FIELDS, shown: (value) => configFromLayout(layoutFromConfig(value)) },
  seo: {
    names: seoFields,
    shown: (value, { timeZone }) => {
      const entry = { ...EMPTY_SEO_ENTRY, ...(value && typeof value === 'object' ? value : {}) };
      return { ...entry, publishedTime: readableInstant(entry.publishedTime, timeZone), modifiedTime: readableInstant(entry.modifiedTime, timeZone) };
    },
  },
  // A stored document the schema no longer takes is compared as it is: the log shows what was there.
  'chat-settings': { names: () => CHAT_SETTINGS_FIELDS, shown: shownChatSettings },
  'general-settings': {
    names: () => GENERAL_SETTINGS_FIELDS,
    shown: (value) => {
      const settings = resolveGeneralSettings(value);
      return { ...settings, timeZone: settings.timeZone ?? TIME_ZONE_NOT_CHOSEN };
    },
  },
  [POLICY_ENTITY_TYPE]: { names: (id) => (isPolicyKind(id) ? policyFields(id) : {}), shown: (value) => value },
};

/**
 * The changes of an activity entry about a site-wide document or a policy, field by field with the form's
 * labels; undefined for any other entry (a content record: diffRecords).
 */
export function documentChanges(entry: { entityType: string; entityId: string; before: unknown; after: unknown }, timeZone: string = DEFAULT_TIME_ZONE): FieldChange[] | undefined {
  const view = Object.hasOwn(DOCUMENT_VIEWS, entry.entityType) ? DOCUMENT_VIEWS[entry.entityType] : undefined;
  if (!view) return undefined;
  const before = entry.before ?? null;
  const after = entry.after ?? null;
  return diffFields(view.shown(before, { other: after, timeZone }), view.shown(after, { other: before, timeZone }), view.names(entry.entityId));
}
