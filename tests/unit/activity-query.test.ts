/** The activity page's URL state and words (src/shared/activity-query.ts). */
import { describe, expect, it } from 'vitest';
import { actionLabel, activityHref, EMPTY_ACTIVITY_QUERY, isFiltered, parseActivityQuery, recordAdminHref, typeLabel } from '../../src/shared/activity-query';

const parse = (qs: string) => parseActivityQuery(new URLSearchParams(qs));

describe('parseActivityQuery', () => {
  it('reads every filter and the page', () => {
    expect(parse('type=service&action=update&admin=owner@example.com&q=%20price%20&page=3')).toEqual({
      type: 'service',
      action: 'update',
      admin: 'owner@example.com',
      q: 'price',
      page: 3,
      entry: '',
    });
  });

  it('drops what cannot be a filter instead of failing', () => {
    expect(parse('type=%3Cscript%3E&action=DROP%20TABLE&admin=nobody&page=-1&entry=../../etc')).toEqual(EMPTY_ACTIVITY_QUERY);
    expect(parse('page=1.5').page).toBe(1);
    expect(parse('page=100001').page).toBe(1);
    expect(parse(`q=${'x'.repeat(500)}`).q).toHaveLength(100);
    expect(parse(`admin=${'a'.repeat(300)}@example.com`).admin).toBe('');
  });

  it('an entry id is a UUID, kept in lower case', () => {
    expect(parse('entry=0B5A3C1E-1234-4ABC-9DEF-0123456789AB').entry).toBe('0b5a3c1e-1234-4abc-9def-0123456789ab');
  });
});

describe('activityHref', () => {
  it('keeps the filters, leaves defaults out, and round-trips', () => {
    const q = parse('type=faq&q=refund&page=2');
    expect(activityHref(q)).toBe('/admin/activity?type=faq&q=refund&page=2');
    expect(activityHref(q, { page: 1 })).toBe('/admin/activity?type=faq&q=refund');
    expect(activityHref(EMPTY_ACTIVITY_QUERY)).toBe('/admin/activity');
    const href = activityHref(q, { admin: 'a+b@example.com', q: 'a & b' });
    expect(parseActivityQuery(new URL(href, 'http://x').searchParams)).toEqual({ ...q, admin: 'a+b@example.com', q: 'a & b' });
  });

  it('isFiltered', () => {
    expect(isFiltered(EMPTY_ACTIVITY_QUERY)).toBe(false);
    expect(isFiltered({ ...EMPTY_ACTIVITY_QUERY, page: 4 })).toBe(false);
    expect(isFiltered({ ...EMPTY_ACTIVITY_QUERY, q: 'x' })).toBe(true);
  });
});

describe('words and links', () => {
  it('labels codes, and shows unknown ones as they are', () => {
    expect(actionLabel('update')).toBe('Updated');
    expect(actionLabel('import')).toBe('Imported');
    expect(actionLabel('archive')).toBe('Archive');
    expect(typeLabel('faq')).toBe('FAQs');
    expect(typeLabel('widget')).toBe('Widget');
    expect(typeLabel('site-content')).toBe('Site texts');
    expect(typeLabel('chat-settings')).toBe('Chat settings');
    expect(typeLabel('policy')).toBe('Policies');
  });

  it('links an entry to its record unless the change removed it', () => {
    expect(recordAdminHref({ entityType: 'service', entityId: 'lead outreach', removed: false })).toBe('/admin/services/lead%20outreach');
    expect(recordAdminHref({ entityType: 'service', entityId: 'x', removed: true })).toBeUndefined();
    expect(recordAdminHref({ entityType: 'service', entityId: '*', removed: false })).toBeUndefined();
    expect(recordAdminHref({ entityType: 'content', entityId: 'backup.json', removed: false })).toBeUndefined();
  });

  it('links a settings entry to its editor: a document is never removed, at worst back to its defaults', () => {
    expect(recordAdminHref({ entityType: 'site-content', entityId: 'siteContent', removed: false })).toBe('/admin/content');
    expect(recordAdminHref({ entityType: 'landing', entityId: 'landingPage', removed: false })).toBe('/admin/landing-page-config');
    expect(recordAdminHref({ entityType: 'seo', entityId: '/services', removed: false })).toBe('/admin/seo?page=%2Fservices');
    expect(recordAdminHref({ entityType: 'chat-settings', entityId: 'chatSettings', removed: false })).toBe('/admin/chat-settings/settings');
    expect(recordAdminHref({ entityType: 'policy', entityId: 'privacy', removed: true })).toBe('/admin/content/privacy');
  });
});
