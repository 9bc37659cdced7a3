/**
 * "Needs attention" on the admin overview: what on the public site is still an example value, missing,
 * hidden from visitors or incomplete, each with where to fix it. Pure (the overview service gathers the
 * facts), so every rule is unit-tested; an empty list means nothing needs the owner.
 */
import { REPLY_TO_SETTING_HREF, TIME_ZONE_SETTING_HREF } from './admin-nav';
import { EMPTY_STATES } from './constants';
import { addressOf, isUnanswerableSender } from './mail-address';
import { siteContentSchema, type SiteContent } from './site-content';
import { plural } from './plural';

export interface AttentionFacts {
  site: SiteContent;
  services: number;
  demos: number;
  packages: { active: number; inactive: number };
  articles: { published: number; drafts: number; featuredImageWithoutAlt: number };
  /** The From of the site's mail, and the team's reply address of the general settings ('' when not set). */
  mail: { sender: string; replyTo: string };
  /** Whether the owner has chosen the site's time zone (general settings); UTC until then. */
  timeZoneChosen: boolean;
}

/** Where the general settings are edited (the time zone and where replies go). */
export { GENERAL_SETTINGS_HREF } from './admin-nav';

export interface AttentionItem {
  /** Stable key (tests, data attributes). */
  key: string;
  /** 'warning': visitors see something wrong or missing; 'info': fine, but worth knowing. */
  tone: 'warning' | 'info';
  text: string;
  href: string;
  /** The link's words ("Edit the site texts"). */
  action: string;
}

/** The site texts as they ship: a value still equal to one of these is the example agency's, not the owner's. */
const EXAMPLE = siteContentSchema.parse({});

const isAre = (n: number) => (n === 1 ? 'is' : 'are');

export function attentionItems(f: AttentionFacts): AttentionItem[] {
  const items: AttentionItem[] = [];
  const texts = { href: '/admin/content', action: 'Edit the site texts' };

  const examples = [
    f.site.bookingUrl === EXAMPLE.bookingUrl && 'the booking link',
    f.site.footer.contactEmail === EXAMPLE.footer.contactEmail && 'the contact email',
    f.site.footer.socialUrl === EXAMPLE.footer.socialUrl && 'the social link',
  ].filter((x): x is string => Boolean(x));
  if (examples.length > 0) {
    const list = examples.length === 1 ? examples[0]! : `${examples.slice(0, -1).join(', ')} and ${examples.at(-1)!}`;
    items.push({
      key: 'example-contacts',
      tone: 'warning',
      text: `${list.charAt(0).toUpperCase()}${list.slice(1)} ${examples.length === 1 ? 'is' : 'are'} still the example value: visitors would reach the example agency, not you.`,
      ...texts,
    });
  }
  if (f.site.business.latitude === null || f.site.business.longitude === null) {
    items.push({ key: 'business-location', tone: 'info', text: 'The business location is not set, so search engines get no location for the business.', ...texts });
  }
  if (isUnanswerableSender(f.mail.sender) && !f.mail.replyTo) {
    items.push({
      key: 'mail-replies',
      tone: 'warning',
      text: `Emails go out from ${addressOf(f.mail.sender)}, which nobody reads, and no reply address is set: prospects' replies to their confirmation, report and follow-ups reach ${f.site.footer.contactEmail} (the contact email) unless their lead has an owner. Choose where replies go; whoever runs the server sets MAIL_FROM to a real sender.`,
      href: REPLY_TO_SETTING_HREF,
      action: 'Choose where replies go',
    });
  }
  if (!f.timeZoneChosen) {
    items.push({ key: 'time-zone', tone: 'info', text: 'The site’s time zone is not set: times, days and quiet hours are in UTC.', href: TIME_ZONE_SETTING_HREF, action: 'Set the time zone' });
  }
  if (f.services === 0) {
    items.push({ key: 'no-services', tone: 'warning', text: `There are no services: the site says “${EMPTY_STATES.services}”.`, href: '/admin/services/new', action: 'Add a service' });
  }
  if (f.demos === 0) {
    items.push({ key: 'no-demos', tone: 'warning', text: `There are no demos: the site says “${EMPTY_STATES.demos}”.`, href: '/admin/demos/new', action: 'Add a demo' });
  }
  if (f.packages.active === 0) {
    items.push({
      key: 'no-active-packages',
      tone: 'warning',
      text: `${f.packages.inactive === 0 ? 'There are no packages' : 'No package is active'}: the site says “${EMPTY_STATES.packages}”.`,
      href: '/admin/packages',
      action: 'Open the packages',
    });
  } else if (f.packages.inactive > 0) {
    items.push({
      key: 'inactive-packages',
      tone: 'info',
      text: `${plural(f.packages.inactive, 'package')} ${isAre(f.packages.inactive)} inactive: only admins see ${f.packages.inactive === 1 ? 'it' : 'them'}.`,
      href: '/admin/packages',
      action: 'Open the packages',
    });
  }
  if (f.articles.featuredImageWithoutAlt > 0) {
    const n = f.articles.featuredImageWithoutAlt;
    items.push({
      key: 'articles-without-alt',
      tone: 'warning',
      text: `${plural(n, 'article')} ${n === 1 ? 'has' : 'have'} a featured image without alt text: people using a screen reader do not know what it shows.`,
      href: '/admin/articles',
      action: 'Open the articles',
    });
  }
  if (f.articles.drafts > 0) {
    const n = f.articles.drafts;
    items.push({
      key: 'article-drafts',
      tone: 'info',
      text: `${plural(n, 'article')} ${isAre(n)} not published yet: visitors do not see ${n === 1 ? 'it' : 'them'}.`,
      href: '/admin/articles',
      action: 'Open the articles',
    });
  }
  // Warnings first: they are what visitors get wrong today.
  return [...items.filter((i) => i.tone === 'warning'), ...items.filter((i) => i.tone === 'info')];
}
