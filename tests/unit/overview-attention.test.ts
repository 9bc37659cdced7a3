/** The admin overview's "Needs attention" rules (src/shared/overview-attention.ts). */
import { describe, expect, it } from 'vitest';
import { attentionItems, type AttentionFacts } from '../../src/shared/overview-attention';
import { siteContentSchema } from '../../src/shared/site-content';

/** An owner's finished site: their own contacts and location, every type filled, nothing hidden. */
const finished: AttentionFacts = {
  site: siteContentSchema.parse({
    bookingUrl: 'https://cal.com/owner/call',
    footer: { contactEmail: 'me@owner.example', socialUrl: 'https://www.linkedin.com/in/owner' },
    business: { latitude: 52.5, longitude: 13.4 },
  }),
  services: 3,
  demos: 2,
  packages: { active: 2, inactive: 0 },
  articles: { published: 4, drafts: 0, featuredImageWithoutAlt: 0 },
  mail: { sender: '"Owner Agency" <hello@owner.example>', replyTo: '' },
  timeZoneChosen: true,
};

const keys = (facts: AttentionFacts) => attentionItems(facts).map((i) => i.key);

describe('what needs the owner’s attention', () => {
  it('nothing on a finished site', () => {
    expect(attentionItems(finished)).toEqual([]);
  });

  it('the example contact details, named together, pointing to the site texts', () => {
    const [item, ...rest] = attentionItems({ ...finished, site: siteContentSchema.parse({ business: { latitude: 1, longitude: 2 } }) });
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ key: 'example-contacts', tone: 'warning', href: '/admin/content' });
    expect(item!.text).toBe('The booking link, the contact email and the social link are still the example value: visitors would reach the example agency, not you.');

    const onlyEmail = siteContentSchema.parse({ ...finished.site, footer: { ...finished.site.footer, contactEmail: 'hello@autoflow.agency' } });
    expect(attentionItems({ ...finished, site: onlyEmail })[0]!.text).toMatch(/^The contact email is still the example value/);
  });

  it('a missing business location, half a location included', () => {
    const half = siteContentSchema.parse({ ...finished.site, business: { latitude: 10, longitude: null } });
    expect(attentionItems({ ...finished, site: half })).toEqual([expect.objectContaining({ key: 'business-location', tone: 'info' })]);
    const equator = siteContentSchema.parse({ ...finished.site, business: { latitude: 0, longitude: 0 } });
    expect(keys({ ...finished, site: equator })).toEqual([]);
  });

  it('empty types say what visitors see, with the seed’s words', () => {
    const items = attentionItems({ ...finished, services: 0, demos: 0, packages: { active: 0, inactive: 0 } });
    expect(items.map((i) => i.text)).toEqual([
      'There are no services: the site says “Services coming soon”.',
      'There are no demos: the site says “Demo builds coming soon”.',
      'There are no packages: the site says “Packages coming soon”.',
    ]);
    expect(items.map((i) => i.href)).toEqual(['/admin/services/new', '/admin/demos/new', '/admin/packages']);
  });

  it('inactive packages: a warning when none is active, a note otherwise', () => {
    expect(attentionItems({ ...finished, packages: { active: 0, inactive: 2 } })[0]).toMatchObject({
      key: 'no-active-packages',
      tone: 'warning',
      text: 'No package is active: the site says “Packages coming soon”.',
    });
    expect(attentionItems({ ...finished, packages: { active: 1, inactive: 1 } })[0]).toMatchObject({
      key: 'inactive-packages',
      tone: 'info',
      text: '1 package is inactive: only admins see it.',
    });
    expect(attentionItems({ ...finished, packages: { active: 1, inactive: 3 } })[0]!.text).toBe('3 packages are inactive: only admins see them.');
  });

  it('articles: missing alt text is a warning, drafts a note', () => {
    const items = attentionItems({ ...finished, articles: { published: 1, drafts: 2, featuredImageWithoutAlt: 1 } });
    expect(items.map((i) => [i.key, i.tone, i.text])).toEqual([
      ['articles-without-alt', 'warning', '1 article has a featured image without alt text: people using a screen reader do not know what it shows.'],
      ['article-drafts', 'info', '2 articles are not published yet: visitors do not see them.'],
    ]);
  });

  it('warnings come before notes', () => {
    const tones = attentionItems({
      ...finished,
      site: siteContentSchema.parse({}),
      demos: 0,
      packages: { active: 1, inactive: 1 },
      articles: { published: 0, drafts: 1, featuredImageWithoutAlt: 1 },
    }).map((i) => i.tone);
    expect(tones).toEqual(['warning', 'warning', 'warning', 'info', 'info', 'info']);
  });

  it('a sender nobody reads while no reply address is set, pointing to the general settings', () => {
    const localhost = { ...finished, mail: { sender: '"Owner Agency" <no-reply@localhost>', replyTo: '' } };
    const [item, ...rest] = attentionItems(localhost);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ key: 'mail-replies', tone: 'warning', href: '/admin/settings#replies', action: 'Choose where replies go' });
    expect(item!.text).toMatch(/^Emails go out from no-reply@localhost, which nobody reads, and no reply address is set: .* reach me@owner\.example \(the contact email\)/);
    expect(keys({ ...finished, mail: { sender: 'noreply@owner.example', replyTo: '' } })).toEqual(['mail-replies']);
    // A reply address set, or a real sender: nothing to say.
    expect(keys({ ...localhost, mail: { ...localhost.mail, replyTo: 'team@owner.example' } })).toEqual([]);
    expect(keys({ ...finished, mail: { sender: 'Maya <maya@owner.example>', replyTo: '' } })).toEqual([]);
  });

  it('a time zone not chosen yet', () => {
    expect(attentionItems({ ...finished, timeZoneChosen: false })).toEqual([expect.objectContaining({ key: 'time-zone', tone: 'info', href: '/admin/settings#time-zone' })]);
  });
});
