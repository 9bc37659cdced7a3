/**
 * Which of the agency's own offers a report names for a problem (issue 22): found by the offer's own name
 * and short text, services before packages, nothing named when nothing fits; and the report made of a run
 * and a draft: left-out checks gone from the lists and the scores, notes on their checks, offers on problems only.
 */
import { describe, expect, it } from 'vitest';
import { reportDocument } from '../../src/server/modules/audit-report/document';
import { matchOffers, offerHref, type Offer } from '../../src/server/modules/audit-report/offers';
import type { CheckResult } from '../../src/server/modules/site-audit/findings';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';

const service = (id: string, name: string, shortText = ''): Offer => ({ kind: 'service', id, name, shortText });
const pack = (id: string, name: string, shortText = ''): Offer => ({ kind: 'package', id, name, shortText });

describe('matchOffers', () => {
  const offers = [
    service('funnels', 'Lead-Capture Funnels', 'Landing pages and forms built to turn visitors into booked calls.'),
    service('reminders', 'Appointment Reminders', 'Confirmations and reminders that cut no-shows.'),
    service('chat', 'AI Receptionist Chat', 'A chat assistant that answers questions.'),
    service('reviews', 'Review & Reputation Automation'),
    pack('growth', 'Clinic Growth System', 'Booking, reminders, reviews and chat in one.'),
  ];

  it('names the offer whose own words speak to the topic', () => {
    const matched = matchOffers(offers);
    expect(matched['lead-capture']?.id).toBe('funnels');
    expect(matched.booking?.id).toBe('reminders');
    expect(matched.chat?.id).toBe('chat');
    expect(matched.reviews?.id).toBe('reviews');
  });

  it('names nothing for a topic no offer speaks to, rather than inventing one', () => {
    const matched = matchOffers(offers);
    expect(matched.seo).toBeUndefined();
    expect(matched['website-speed']).toBeUndefined();
    expect(matchOffers([])).toEqual({});
  });

  it('prefers the offer listed first on a tie (services come first), and words at the start of a word only', () => {
    expect(matchOffers([service('s', 'Live Chat'), pack('p', 'Live Chat Package')]).chat?.id).toBe('s');
    expect(matchOffers([service('a', 'Chat Desk'), service('b', 'Chat Pro')]).chat?.id).toBe('a');
    // A better fit wins over the order.
    expect(matchOffers([service('a', 'Chat Desk'), service('b', 'Live Chat Inbox')]).chat?.id).toBe('b');
    // "platform" contains "form", but not at the start of a word.
    expect(matchOffers([service('x', 'Platform Migration')])['lead-capture']).toBeUndefined();
  });

  it('links to the offer\'s own page', () => {
    expect(offerHref(service('a b', 'x'))).toBe('/service/a%20b');
    expect(offerHref(pack('p1', 'x'))).toBe('/package/p1');
  });
});

describe('reportDocument', () => {
  const check = (id: string, status: CheckResult['status'], category: CheckResult['category'], topic?: CheckResult['topic']): CheckResult => ({ id, category, title: id, status, evidence: [], why: '', fix: '', topic });
  const findings = scoreFindings([
    check('https', 'fail', 'security', 'website-care'),
    check('contact-form', 'warn', 'leads', 'lead-capture'),
    check('booking-link', 'fail', 'leads', 'booking'),
    check('title', 'pass', 'search', 'seo'),
    check('lighthouse', 'skipped', 'speed'),
  ]);
  const offers = matchOffers([service('funnels', 'Lead-Capture Funnels'), service('reminders', 'Appointment Reminders')]);

  it('lists problems failed first, the heaviest category first, with notes and offers', () => {
    const doc = reportDocument(findings, { summary: 'Hi', notes: { title: 'Nice title.' }, hidden: [] }, offers);
    expect(doc.toFix.map((c) => c.id)).toEqual(['booking-link', 'https', 'contact-form']);
    expect(doc.toFix.map((c) => c.offer?.id)).toEqual(['reminders', undefined, 'funnels']);
    expect(doc.working).toEqual([expect.objectContaining({ id: 'title', note: 'Nice title.', offer: undefined })]);
    expect(doc.notChecked.map((c) => c.id)).toEqual(['lighthouse']);
    expect(doc.overall).toBe(findings.overall);
  });

  it('takes a left-out check out of the lists and the scores', () => {
    const doc = reportDocument(findings, { summary: '', notes: {}, hidden: ['https'] }, offers);
    expect(doc.toFix.map((c) => c.id)).not.toContain('https');
    expect(doc.categories.find((c) => c.category === 'security')?.score).toBeUndefined();
    expect(doc.overall).not.toBe(findings.overall);
  });
});
