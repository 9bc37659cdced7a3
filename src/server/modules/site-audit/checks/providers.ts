/**
 * Third-party tools a page embeds or links to (booking, chat, reviews, newsletters), recognised by their
 * addresses in links, embeds, script sources and inline scripts. Each page's references are collected once;
 * a provider list becomes one regular expression, so matching stays linear however many providers there are.
 */
import type { ParsedPage } from './context';
import { perPage } from './define';
import { rawText, walk } from './dom';

export interface Provider {
  name: string;
  /** Host names, or host plus path ("squareup.com/appointments"); subdomains match too. */
  hosts: readonly string[];
}

export const INLINE_SCRIPT = 'an inline script';

export interface Reference {
  /** The address or script text as written in the page. */
  value: string;
  /** Where it was seen: "<a href>", "<script src>" or INLINE_SCRIPT. */
  where: string;
}

/** Attributes that hold addresses, including the ones embed codes use (Calendly's data-url …). */
const ADDRESS_ATTRIBUTES = ['href', 'src', 'action', 'data-url', 'data-src', 'data-href', 'onclick'];

export const referencesOf = perPage((page: ParsedPage): Reference[] => {
  const references: Reference[] = [];
  walk(page.root, {
    enter: (el) => {
      for (const name of ADDRESS_ATTRIBUTES) {
        const value = el.attribs[name];
        if (value) references.push({ value, where: `<${el.name} ${name}>` });
      }
      if (el.name === 'script' && !el.attribs.src) {
        const text = rawText(el);
        if (text.trim()) references.push({ value: text, where: INLINE_SCRIPT });
      }
    },
  });
  return references;
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Finds the first provider whose address appears in a text, as a whole host name (not inside another word). */
export function providerMatcher(providers: readonly Provider[]): (text: string) => Provider | undefined {
  const byHost = new Map<string, Provider>();
  for (const provider of providers) for (const host of provider.hosts) byHost.set(host.toLowerCase(), provider);
  const alternatives = [...byHost.keys()]
    .sort((a, b) => b.length - a.length)
    .map((host) => `${/^\w/.test(host) ? '(?<![\\w-])' : ''}${escapeRegExp(host)}${/\w$/.test(host) ? '(?![\\w-])' : ''}`);
  const pattern = new RegExp(alternatives.join('|'), 'i');
  return (text) => {
    const match = pattern.exec(text);
    return match ? byHost.get(match[0].toLowerCase()) : undefined;
  };
}

export const BOOKING_PROVIDERS: readonly Provider[] = [
  { name: 'Calendly', hosts: ['calendly.com'] },
  { name: 'Cal.com', hosts: ['cal.com'] },
  { name: 'Acuity Scheduling', hosts: ['acuityscheduling.com', 'as.me'] },
  { name: 'SimplyBook.me', hosts: ['simplybook.me', 'simplybook.it'] },
  { name: 'Setmore', hosts: ['setmore.com'] },
  { name: 'YouCanBookMe', hosts: ['youcanbook.me'] },
  { name: 'Square Appointments', hosts: ['squareup.com/appointments', 'square.site/book', 'app.squareup.com/appointments'] },
  { name: 'Booksy', hosts: ['booksy.com'] },
  { name: 'Fresha', hosts: ['fresha.com'] },
  { name: 'Zcal', hosts: ['zcal.co'] },
  { name: 'TidyCal', hosts: ['tidycal.com'] },
  { name: 'SavvyCal', hosts: ['savvycal.com'] },
  { name: 'HubSpot Meetings', hosts: ['meetings.hubspot.com', 'meetings-eu1.hubspot.com'] },
  { name: 'Zoho Bookings', hosts: ['bookings.zoho.com', 'bookings.zoho.eu', 'zohobookings.com', 'zohobookings.eu'] },
  { name: 'Google Calendar appointments', hosts: ['calendar.app.google', 'calendar.google.com/calendar/appointments'] },
];

export const CHAT_PROVIDERS: readonly Provider[] = [
  { name: 'Intercom', hosts: ['widget.intercom.io', 'js.intercomcdn.com'] },
  { name: 'Crisp', hosts: ['client.crisp.chat'] },
  { name: 'Tidio', hosts: ['code.tidio.co'] },
  { name: 'Drift', hosts: ['js.driftt.com'] },
  { name: 'HubSpot chat', hosts: ['js.hs-scripts.com', 'js.usemessages.com'] },
  { name: 'tawk.to', hosts: ['embed.tawk.to'] },
  { name: 'LiveChat', hosts: ['cdn.livechatinc.com'] },
  { name: 'Zendesk', hosts: ['static.zdassets.com'] },
  { name: 'Olark', hosts: ['static.olark.com'] },
  { name: 'Freshchat', hosts: ['wchat.freshchat.com'] },
  { name: 'JivoChat', hosts: ['code.jivosite.com', 'code.jivochat.com'] },
  { name: 'Chatwoot', hosts: ['app.chatwoot.com', 'chatwootSDK'] },
  { name: 'Smartsupp', hosts: ['www.smartsuppchat.com', 'smartsuppchat.com'] },
  { name: 'Userlike', hosts: ['userlike-cdn-widgets.s3-eu-west-1.amazonaws.com', 'userlike.com'] },
  { name: 'Facebook Messenger chat', hosts: ['xfbml.customerchat'] },
];

/** A WhatsApp link lets visitors message you, though not on the page itself. */
export const WHATSAPP: readonly Provider[] = [{ name: 'WhatsApp', hosts: ['wa.me', 'api.whatsapp.com', 'whatsapp://'] }];

export const REVIEW_PROVIDERS: readonly Provider[] = [
  { name: 'Elfsight', hosts: ['elfsightcdn.com', 'static.elfsight.com', 'apps.elfsight.com'] },
  { name: 'Trustpilot', hosts: ['widget.trustpilot.com'] },
  { name: 'Trustindex (Google reviews)', hosts: ['cdn.trustindex.io'] },
  { name: 'Featurable (Google reviews)', hosts: ['featurable.com'] },
  { name: 'EmbedSocial', hosts: ['embedsocial.com'] },
  { name: 'Yotpo', hosts: ['staticw2.yotpo.com', 'cdn-widgetsrepository.yotpo.com'] },
  { name: 'Birdeye', hosts: ['birdeye.com'] },
  { name: 'REVIEWS.io', hosts: ['widget.reviews.io', 'reviews.io'] },
];

export const NEWSLETTER_PROVIDERS: readonly Provider[] = [
  { name: 'Mailchimp', hosts: ['list-manage.com', 'chimpstatic.com'] },
  { name: 'Kit (ConvertKit)', hosts: ['convertkit.com', 'ck.page', 'kit.com'] },
  { name: 'MailerLite', hosts: ['mailerlite.com'] },
  { name: 'Klaviyo', hosts: ['klaviyo.com'] },
  { name: 'HubSpot forms', hosts: ['js.hsforms.net', 'hsforms.com'] },
  { name: 'beehiiv', hosts: ['beehiiv.com'] },
  { name: 'Substack', hosts: ['substack.com'] },
];

/** Form services whose embedded forms a visitor can write to you through. */
export const FORM_PROVIDERS: readonly Provider[] = [
  { name: 'Google Forms', hosts: ['docs.google.com/forms', 'forms.gle'] },
  { name: 'Typeform', hosts: ['typeform.com'] },
  { name: 'Jotform', hosts: ['jotform.com'] },
  { name: 'Tally', hosts: ['tally.so'] },
  { name: 'HubSpot forms', hosts: ['js.hsforms.net', 'hsforms.com'] },
  { name: 'Formspree', hosts: ['formspree.io'] },
  { name: 'Wufoo', hosts: ['wufoo.com'] },
  { name: 'Cognito Forms', hosts: ['cognitoforms.com'] },
];

/** The first reference on any of the pages (home first) that names one of the providers. */
export function findProvider(
  pages: readonly ParsedPage[],
  providers: readonly Provider[],
): { provider: Provider; reference: Reference; page: ParsedPage } | undefined {
  const match = providerMatcher(providers);
  for (const page of pages) {
    for (const reference of referencesOf(page)) {
      const provider = match(reference.value);
      if (provider) return { provider, reference, page };
    }
  }
  return undefined;
}
