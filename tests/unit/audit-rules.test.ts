import { describe, expect, it } from 'vitest';
import {
  AUDIT_LIMITS,
  auditFieldErrors,
  auditListQueryOf,
  auditListSearch,
  auditRequestSchema,
  auditSubmissionOf,
  cleanAttribution,
  HONEYPOT_FIELD,
} from '../../src/shared/schemas/audit';

const valid = {
  fullName: 'Ada Lovelace',
  email: 'Ada@Example.com',
  businessName: 'Analytical Clinic',
  website: 'example.com',
  phone: '+44 20 7946 0000',
  businessType: 'clinic',
  goals: ['nurturing', 'more-leads'],
  message: 'Hello',
  consent: true,
};

const errorsOf = (input: Record<string, unknown>) => {
  const parsed = auditRequestSchema.safeParse(input);
  return parsed.success ? {} : auditFieldErrors(parsed.error);
};

describe('the free-audit form rules', () => {
  it('accepts a complete request, normalising email, website and goal order', () => {
    const parsed = auditRequestSchema.parse(valid);
    expect(parsed.email).toBe('ada@example.com');
    expect(parsed.website).toBe('https://example.com');
    expect(parsed.goals).toEqual(['more-leads', 'nurturing']);
  });

  it('accepts a request without the optional website, phone and message', () => {
    const parsed = auditRequestSchema.parse({ ...valid, website: '', phone: '', message: undefined });
    expect(parsed.website).toBeUndefined();
    expect(parsed.phone).toBeUndefined();
    expect(parsed.message).toBe('');
  });

  it('says in plain words what is wrong, by field', () => {
    const errors = errorsOf({ fullName: '', email: 'not-an-email', businessName: ' ', businessType: 'bakery', goals: [], consent: false });
    expect(errors).toEqual({
      fullName: 'Full name is required',
      email: 'Please enter a valid email address',
      businessName: 'Business name is required',
      businessType: 'Please choose your type of business',
      goals: 'Please choose at least one goal',
      consent: 'Please agree to be contacted about your audit',
    });
  });

  it('refuses websites that are not http or https', () => {
    expect(errorsOf({ ...valid, website: 'javascript:alert(1)' }).website).toBe('Please enter a valid website address');
    expect(errorsOf({ ...valid, website: 'ftp://example.com' }).website).toBe('Please enter a valid website address');
    expect(errorsOf({ ...valid, website: 'http://example.com/page' }).website).toBeUndefined();
  });

  it('caps every text field', () => {
    expect(errorsOf({ ...valid, fullName: 'a'.repeat(AUDIT_LIMITS.fullName + 1) }).fullName).toBe('Full name must be at most 100 characters');
    expect(errorsOf({ ...valid, businessName: 'a'.repeat(AUDIT_LIMITS.businessName + 1) }).businessName).toMatch(/at most 150/);
    expect(errorsOf({ ...valid, message: 'a'.repeat(AUDIT_LIMITS.message + 1) }).message).toMatch(/at most 2000/);
    expect(errorsOf({ ...valid, email: `${'a'.repeat(250)}@example.com` }).email).toBeDefined();
  });

  it('refuses unknown goals and control characters in names', () => {
    expect(errorsOf({ ...valid, goals: ['world-domination'] }).goals).toBe('Please choose from the listed goals');
    expect(errorsOf({ ...valid, fullName: 'Ada\r\nBcc: x@example.com' }).fullName).toMatch(/not allowed/);
  });
});

describe('reading a submission', () => {
  it('reads a form post: every checked goal, the consent box, the honeypot and the attribution', () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...valid, consent: 'on' })) if (!Array.isArray(v)) form.set(k, String(v));
    form.append('goals', 'more-leads');
    form.append('goals', 'nurturing');
    form.set(HONEYPOT_FIELD, 'spam');
    form.set('utm_source', 'newsletter');
    form.set('sourcePage', '/services');
    const submission = auditSubmissionOf(form);
    expect(submission.fields.goals).toEqual(['more-leads', 'nurturing']);
    expect(submission.fields.consent).toBe(true);
    expect(submission.honeypot).toBe('spam');
    expect(submission.attribution).toEqual({ utmSource: 'newsletter', sourcePage: '/services' });
  });

  it('an unticked consent box is no consent', () => {
    const form = new FormData();
    expect(auditSubmissionOf(form).fields.consent).toBe(false);
    expect(auditSubmissionOf({ consent: 'false' }).fields.consent).toBe(false);
  });

  it('keeps plausible attribution and drops the rest', () => {
    expect(
      cleanAttribution({
        sourcePage: '//evil.example/x',
        referrer: 'javascript:alert(1)',
        utmSource: 'x'.repeat(101),
        utmMedium: 42,
        utmCampaign: 'spring\u0000sale',
        utmTerm: 'Visit https://buy.example now',
        utmContent: 'top banner',
      }),
    ).toEqual({ utmContent: 'top banner' });
    // The landing page without its query, the referrer as its origin.
    expect(cleanAttribution({ referrer: 'https://www.google.com/search?q=my+name', sourcePage: '/article/x?utm_source=a', utmSource: ' Newsletter ' })).toEqual({
      referrer: 'https://www.google.com',
      sourcePage: '/article/x',
      utmSource: 'Newsletter',
    });
  });

  it('keeps a landing page only when it is one of the site\'s public routes', () => {
    for (const page of ['/', '/services', '/free-audit', '/service/seo', '/article/hello%20world', '/auth/reset-password']) {
      expect(cleanAttribution({ sourcePage: page }), page).toEqual({ sourcePage: page });
    }
    for (const page of ['/buy-now-at-cheap-example', '/services/extra', '/admin', '/api/visits', '/service/', '/service/a/b', '/article/%E0%A4%A']) {
      expect(cleanAttribution({ sourcePage: page }), page).toEqual({});
    }
  });
});

describe('the admin list URL state', () => {
  it('reads q, status and page, falling back to defaults', () => {
    expect(auditListQueryOf(new URLSearchParams('q=%20ada%20&report=sent&stage=contacted&page=3'))).toEqual({ q: 'ada', report: 'sent', stage: 'contacted', page: 3 });
    expect(auditListQueryOf(new URLSearchParams('stage=bogus&page=-2'))).toEqual({ q: '', report: '', stage: '', page: 1 });
    expect(auditListQueryOf(new URLSearchParams('report=waiting')).report).toBe('waiting');
    expect(auditListQueryOf(new URLSearchParams('report=opened')).report).toBe('opened');
    expect(auditListQueryOf(new URLSearchParams('report=closed')).report).toBe('');
    // The status a request had of its own before issue 35 is no filter any more.
    expect(auditListQueryOf(new URLSearchParams('status=closed'))).toEqual({ q: '', report: '', stage: '', page: 1 });
    expect(auditListQueryOf(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(AUDIT_LIMITS.search);
  });

  it('writes short links', () => {
    expect(auditListSearch({ q: 'a b', stage: 'new', page: 2 })).toBe('?q=a+b&stage=new&page=2');
    expect(auditListSearch({ report: 'waiting', page: 1 })).toBe('?report=waiting');
    expect(auditListSearch({ q: '', report: '', stage: '', page: 1 })).toBe('');
  });
});
