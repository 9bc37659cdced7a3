/**
 * The activity log's view of a site-wide document's change (src/shared/document-changes.ts): a document
 * never saved is its defaults, so a save lists only what it changed, field by field with the editing
 * form's labels; and those labels are the forms' own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LABEL_SEPARATOR, type FieldName, type FieldNames } from '../../src/shared/activity-diff';
import { DEFAULT_CHAT_SETTINGS } from '../../src/shared/chat';
import { CHAT_SETTINGS_FIELDS, documentChanges, GENERAL_SETTINGS_FIELDS, LANDING_LAYOUT_FIELDS, policyFields, seoFields, SITE_TEXT_FIELDS } from '../../src/shared/document-changes';
import { LANDING_BLOCKS } from '../../src/shared/landing';
import { EMPTY_SEO_ENTRY } from '../../src/shared/seo';
import { siteContentSchema } from '../../src/shared/site-content';

const defaults = siteContentSchema.parse({});
const entry = (entityType: string, entityId: string, before: unknown, after: unknown) => ({ entityType, entityId, before, after });

describe('site texts', () => {
  it('the first save, one headline changed: that headline, not eleven sections', () => {
    const after = { ...defaults, hero: { ...defaults.hero, headline: 'We run your' } };
    expect(documentChanges(entry('site-content', 'siteContent', null, after))).toEqual([
      { field: 'hero.headline', label: 'Hero › Headline', kind: 'changed', before: 'We automate your', after: 'We run your' },
    ]);
  });

  it('a revert back to the defaults (nothing stored) shows the way back', () => {
    const before = { ...defaults, footer: { ...defaults.footer, contactEmail: 'team@clinic.example' } };
    expect(documentChanges(entry('site-content', 'siteContent', before, null))).toEqual([
      { field: 'footer.contactEmail', label: 'Footer › Contact email', kind: 'changed', before: 'team@clinic.example', after: 'hello@autoflow.agency' },
    ]);
  });

  it('testimonials and offering cards are named by their place; a partial stored document is completed first', () => {
    const testimonials = defaults.testimonials.map((t, i) => (i === 1 ? { ...t, role: 'Owner, Northside Physio' } : t));
    const offerings = defaults.whatWeBuild.offerings.map((o, i) => (i === 3 ? { ...o, title: 'Funnels' } : o));
    const changes = documentChanges(entry('site-content', 'siteContent', { siteName: defaults.siteName }, { ...defaults, testimonials, whatWeBuild: { ...defaults.whatWeBuild, offerings } }));
    expect(changes?.map((c) => [c.field, c.label, c.after])).toEqual([
      ['whatWeBuild.offerings.3.title', 'What we build › Offering card 4 › Title', 'Funnels'],
      ['testimonials.1.role', 'Testimonials › Testimonial 2 › Role and company', 'Owner, Northside Physio'],
    ]);
  });
});

describe('landing page layout, SEO, chat settings, policies', () => {
  it('the layout: blocks by their names, one a line', () => {
    const order = ['faqs', ...LANDING_BLOCKS.filter((b) => b !== 'faqs')];
    const changes = documentChanges(entry('landing', 'landingPage', null, { blockOrder: order, hidden: ['testimonials'] }));
    expect(changes?.map((c) => [c.label, c.kind])).toEqual([
      ['Blocks › Order', 'changed'],
      ['Blocks › Hidden', 'added'],
    ]);
    expect(changes?.[0]?.after?.split('\n').slice(0, 3)).toEqual(['FAQ', 'Hero', 'What we build']);
    expect(changes?.[1]?.after).toBe('Testimonials');
  });

  it('an SEO entry: the form’s labels (the defaults call the title “Site name in titles”), times readable, the type in words', () => {
    const after = { ...EMPTY_SEO_ENTRY, title: 'Services for clinics', type: 'article', publishedTime: '2025-03-14T08:30:00.000Z', modifiedTime: null };
    expect(documentChanges(entry('seo', '/services', null, after))).toEqual([
      { field: 'title', label: 'Title', kind: 'added', before: undefined, after: 'Services for clinics' },
      { field: 'type', label: 'Type', kind: 'changed', before: 'Website (a page of the site)', after: 'Article (dated writing, with author and times)' },
      { field: 'publishedTime', label: 'Published', kind: 'added', before: undefined, after: '14 Mar 2025, 08:30' },
    ]);
    // In the site's time zone, which the activity page names in its header.
    expect(documentChanges(entry('seo', '/services', null, after), 'Europe/Berlin')?.at(-1)?.after).toBe('14 Mar 2025, 09:30');
    expect(documentChanges(entry('seo', '/*', null, { ...EMPTY_SEO_ENTRY, title: 'Autoflow' }))?.map((c) => c.label)).toEqual(['Site name in titles']);
  });

  it('the chat settings: switched off, a quick reply’s link, the hours of a day, the contact question in words', () => {
    const d = DEFAULT_CHAT_SETTINGS;
    const after = {
      ...d,
      enabled: false,
      quickReplies: d.quickReplies.map((q, i) => (i === 1 ? { ...q, value: '/services' } : q)),
      askContact: 'at-start',
      businessHours: { ...d.businessHours, days: { ...d.businessHours.days, monday: { ...d.businessHours.days.monday, from: '08:00' }, saturday: { ...d.businessHours.days.saturday, open: true } } },
    };
    expect(documentChanges(entry('chat-settings', 'chatSettings', null, after))?.map((c) => [c.label, c.before, c.after])).toEqual([
      ['Show the chat on every page', 'Yes', 'No'],
      ['Quick replies › Quick reply 2 › Link', '/free-audit', '/services'],
      ['Ask visitors for their contact details', 'Only when the assistant has no answer, a person is asked for, or outside business hours', 'Before the first question'],
      ['Business hours › Opening hours › Monday › Opens', '09:00', '08:00'],
      ['Business hours › Opening hours › Saturday', 'Closed', 'Open'],
    ]);
  });

  it('the chat settings of an entry logged before the time zone moved to the general settings still show its zone', () => {
    const d = DEFAULT_CHAT_SETTINGS;
    const old = (timeZone: string, from = '09:00') => ({ ...d, businessHours: { ...d.businessHours, timeZone, days: { ...d.businessHours.days, monday: { ...d.businessHours.days.monday, from } } } });
    expect(documentChanges(entry('chat-settings', 'chatSettings', old('UTC'), old('Europe/Berlin', '08:00')))?.map((c) => [c.label, c.before, c.after])).toEqual([
      ['Business hours › Time zone', 'UTC', 'Europe/Berlin'],
      ['Business hours › Opening hours › Monday › Opens', '09:00', '08:00'],
    ]);
    // The first save then: the defaults it replaced had UTC.
    expect(documentChanges(entry('chat-settings', 'chatSettings', null, old('Asia/Tehran')))?.map((c) => [c.label, c.before, c.after])).toEqual([['Business hours › Time zone', 'UTC', 'Asia/Tehran']]);
    // Saves since hold no zone: none is listed.
    expect(documentChanges(entry('chat-settings', 'chatSettings', null, { ...d, assistantName: 'Ada' }))?.map((c) => c.label)).toEqual(['Assistant name']);
  });

  it('the general settings: the zone chosen, and where replies go', () => {
    expect(documentChanges(entry('general-settings', 'generalSettings', null, { timeZone: 'Europe/Berlin', replyTo: 'team@example.com' }))?.map((c) => [c.label, c.kind, c.before, c.after])).toEqual([
      ['Time zone', 'changed', 'Not chosen: times are in UTC', 'Europe/Berlin'],
      ['Replies to emails go to', 'added', undefined, 'team@example.com'],
    ]);
    expect(documentChanges(entry('general-settings', 'generalSettings', { timeZone: 'Europe/Berlin', replyTo: 'team@example.com' }, { timeZone: 'Europe/Berlin', replyTo: '' }))?.map((c) => [c.label, c.kind])).toEqual([
      ['Replies to emails go to', 'removed'],
    ]);
  });

  it('a policy: the text’s changed part as text (markup shown, shortened around the change), and the built-in text left', () => {
    const text = (middle: string) => `<h2>What we collect</h2><p>${'We keep what you send us. '.repeat(30)}</p><p>${middle}</p><p>${'Ask us any time. '.repeat(30)}</p>`;
    const changes = documentChanges(
      entry('policy', 'privacy', { html: text('We keep logs for 30 days.'), updatedAt: '2025-06-01T00:00:00.000Z', isDefault: true }, { html: text('We keep logs for <strong>14</strong> days.'), updatedAt: '2026-01-01T00:00:00.000Z', isDefault: false }),
    );
    expect(changes?.map((c) => [c.field, c.label, c.kind])).toEqual([
      ['html', 'Privacy Policy text', 'changed'],
      ['isDefault', 'Built-in text', 'changed'],
    ]);
    expect(changes?.[0]?.excerpt?.after).toMatch(/^….*<strong>14<\/strong> days\..*…$/s);
    expect(changes![0]!.excerpt!.after.length).toBeLessThan(260);
  });

  it('other entries are not documents: the content records keep their own diff', () => {
    expect(documentChanges(entry('service', 'lead-outreach', null, { name: 'x' }))).toBeUndefined();
    expect(documentChanges(entry('constructor', 'x', null, null))).toBeUndefined();
  });
});

/** Every label and option word the names give, each part of "A › B" on its own. */
function wordsOf(names: FieldNames): string[] {
  const words = (name: FieldName): string[] => {
    if (typeof name === 'string') return name.split(LABEL_SEPARATOR).filter(Boolean);
    if ('words' in name) return [...name.label.split(LABEL_SEPARATOR).filter(Boolean), ...Object.values(name.words)];
    if ('item' in name) {
      const fields = typeof name.fields === 'function' ? [name.fields({ kind: 'link' }), name.fields({ kind: 'message' })] : [name.fields];
      return [...(name.label ? [name.label] : []), name.item, ...fields.flatMap((f) => wordsOf(f))];
    }
    return [name.label, ...wordsOf(name.fields)];
  };
  return [...new Set(Object.values(names).flatMap(words))];
}

const source = (...files: string[]) => files.map((f) => readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8')).join('\n').toLowerCase();

describe('the names are the forms’ own labels', () => {
  const forms: [string, FieldNames, string][] = [
    ['site texts', SITE_TEXT_FIELDS, source('src/features/admin-site-texts/SiteTextsEditor.tsx')],
    ['landing layout', LANDING_LAYOUT_FIELDS, source('src/features/admin-landing/LandingLayoutEditor.tsx', 'src/shared/landing.ts')],
    ['SEO of a page', seoFields('/services'), source('src/features/admin-seo/SeoEntryEditor.tsx')],
    ['SEO site defaults', seoFields('/*'), source('src/features/admin-seo/SeoEntryEditor.tsx')],
    [
      'chat settings',
      CHAT_SETTINGS_FIELDS,
      source('src/features/admin-chat/ChatSettingsEditor.tsx', 'src/features/admin-chat/QuickRepliesField.tsx', 'src/features/admin-chat/BusinessHoursField.tsx', 'src/features/admin-chat/AccentField.tsx', 'src/shared/chat.ts'),
    ],
    ['privacy policy', policyFields('privacy'), source('src/features/admin-policies/PolicyEditor.tsx', 'src/shared/policies.ts')],
    ['general settings', GENERAL_SETTINGS_FIELDS, source('src/features/admin-settings/GeneralSettingsEditor.tsx', 'src/features/admin-settings/TimeZoneField.tsx')],
  ];
  it.each(forms)('%s', (_name, names, form) => {
    const missing = wordsOf(names).filter((word) => !form.includes(word.toLowerCase().replace(/^(privacy policy|terms of service) /, '')));
    expect(missing).toEqual([]);
  });
});
