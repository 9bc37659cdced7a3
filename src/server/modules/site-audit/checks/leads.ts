/**
 * Turns visitors into leads (the agency's angle): the ways a visitor can reach the business, searched on
 * every page fetched, not only the home page; evidence names the page where each was found.
 */
import type { CheckResult } from '../findings';
import type { CheckedLink } from '../snapshot';
import { countWords, cutText, limitLines, plural, quote, tidy } from '../text';
import { linkProblem, withoutFragment, type AuditContext, type HomeContext, type ParsedPage } from './context';
import { fail, findOnPages, onPage, pageCheck, pass, perPage, runCategory, warn, type CheckDefinition } from './define';
import { attr, HIDDEN_CONTENT, previousElement, textOf, walk, type Element } from './dom';
import { jsonLdOf } from './json-ld';
import {
  BOOKING_PROVIDERS,
  CHAT_PROVIDERS,
  findProvider,
  FORM_PROVIDERS,
  INLINE_SCRIPT,
  NEWSLETTER_PROVIDERS,
  REVIEW_PROVIDERS,
  WHATSAPP,
  type Provider,
  type Reference,
} from './providers';

const pagesChecked = (ctx: AuditContext) => plural(ctx.pages.length, 'page');

function describeReference(found: { provider: Provider; reference: Reference; page: ParsedPage }, ctx: AuditContext): string {
  const shown = found.reference.where === INLINE_SCRIPT ? `mentioned in ${INLINE_SCRIPT}` : `${found.reference.where} ${quote(found.reference.value, 100)}`;
  return `${found.provider.name} ${onPage(found.page, ctx)}: ${shown}`;
}

const NOT_EMAIL_INPUTS = new Set(['hidden', 'submit', 'button', 'image', 'reset', 'checkbox', 'radio', 'file']);

function isEmailField(el: Element): boolean {
  if (el.name !== 'input') return false;
  const type = attr(el, 'type').trim().toLowerCase();
  if (type === 'email') return true;
  if (NOT_EMAIL_INPUTS.has(type)) return false;
  return ['name', 'id', 'autocomplete'].some((name) => /e-?mail/i.test(attr(el, name)));
}

interface EmailForm {
  form: Element;
  page: ParsedPage;
  /** A message box: a contact form rather than a sign-up form. */
  hasMessageBox: boolean;
}

/** The page's forms with an email field. Parsed forms never nest, so walking each one stays linear. */
const emailFormsOf = perPage((page: ParsedPage): EmailForm[] => {
  const forms: EmailForm[] = [];
  for (const form of page.elements('form')) {
    let hasEmail = false;
    let hasMessageBox = false;
    walk(form, {
      enter: (el) => {
        hasEmail ||= isEmailField(el);
        hasMessageBox ||= el.name === 'textarea';
      },
    });
    if (hasEmail) forms.push({ form, page, hasMessageBox });
  }
  return forms;
});

const allEmailForms = (ctx: AuditContext) => ctx.pages.flatMap((page) => emailFormsOf(page));

/** The site's links the crawler checked, by address without the #fragment. */
const checkedLinks = (ctx: AuditContext): ReadonlyMap<string, CheckedLink> => new Map(ctx.snapshot.links.map((link) => [withoutFragment(link.url), link]));

interface Target {
  /** How evidence names the address ("/contact", or the whole address of another site). */
  label: string;
  /** Why it does not work ("404 Not Found") when the crawler checked it and found it broken. */
  problem: string | undefined;
}

/** Where `href` leads from `page`, and why it does not work when the crawler checked it and found it broken. */
function targetOf(ctx: AuditContext, href: string, page: ParsedPage, links: ReadonlyMap<string, CheckedLink>): Target {
  const target = href ? ctx.absoluteUrl(href, page.url) : page.url;
  if (!target) return { label: quote(href), problem: undefined };
  const link = ctx.sameSite(target) ? links.get(withoutFragment(target)) : undefined;
  return { label: ctx.label(target), problem: link && linkProblem(link) };
}

/** Where the form sends, and why that address does not work when the crawler found it broken. */
const formTarget = (ctx: AuditContext, found: EmailForm, links: ReadonlyMap<string, CheckedLink>): Target =>
  targetOf(ctx, attr(found.form, 'action').trim(), found.page, links);

const contactForm = pageCheck({
  id: 'contact-form',
  title: 'Contact form',
  why: 'Many visitors will not call or write an email, but they will fill in a short form, at any hour; without one, those leads simply leave.',
  fix: 'Add a short contact form (name, email or phone, message) to the home and contact pages, sending to an inbox someone reads daily.',
  topic: 'lead-capture',
  judge(ctx) {
    const links = checkedLinks(ctx);
    // Prefer a real contact form (with a message box) over a newsletter sign-up for the evidence.
    const forms = allEmailForms(ctx).sort((a, b) => Number(b.hasMessageBox) - Number(a.hasMessageBox));
    const judged = forms.map((found) => ({ found, target: formTarget(ctx, found, links) }));
    const working = judged.find((item) => !item.target.problem);
    if (working) return pass(`Form with an email field ${onPage(working.found.page, ctx)} (sends to ${working.target.label})`);
    if (judged.length > 0) {
      return {
        ...warn(...limitLines(judged.map(({ found, target }) => `The form ${onPage(found.page, ctx)} sends to ${target.label}, which answers ${target.problem}`))),
        fix: 'Messages sent through the form are probably lost: fix the address it sends to (a moved page or a removed plugin) and send yourself a test message.',
      };
    }
    const embedded = findProvider(ctx.pages, FORM_PROVIDERS);
    if (embedded) return pass(`Embedded form: ${describeReference(embedded, ctx)}`);
    return fail(`No <form> with an email field on the ${pagesChecked(ctx)} checked`);
  },
});

const bookingLink = pageCheck({
  id: 'booking-link',
  title: 'Online booking',
  why: 'People who can book a slot themselves, at night or between meetings, book more often than those who have to call during opening hours.',
  fix: 'Connect an online booking tool (Calendly, Cal.com, your practice software\'s booking page) and link "Book now" buttons to it.',
  topic: 'booking',
  judge(ctx) {
    const found = findProvider(ctx.pages, BOOKING_PROVIDERS);
    if (found) return pass(describeReference(found, ctx));
    return fail(`No link to or embed of a booking tool on the ${pagesChecked(ctx)} checked`);
  },
});

const chatWidget = pageCheck({
  id: 'chat-widget',
  title: 'Live chat or messaging',
  why: 'A chat window answers a visitor\'s question while they are still on the page, instead of them going back to the search results.',
  fix: 'Add a chat widget (or an AI assistant that answers common questions and collects contact details) to every page.',
  topic: 'chat',
  judge(ctx) {
    const chat = findProvider(ctx.pages, CHAT_PROVIDERS);
    if (chat) return pass(describeReference(chat, ctx));
    const whatsapp = findProvider(ctx.pages, WHATSAPP);
    if (whatsapp) return pass(describeReference(whatsapp, ctx), 'Visitors can message you on WhatsApp, though not on the page itself');
    return fail(`No chat widget or WhatsApp link on the ${pagesChecked(ctx)} checked`);
  },
});

const startsWith = (el: Element, scheme: string) => attr(el, 'href').trim().toLowerCase().startsWith(scheme);

/** The page's readable text, once per page (phone numbers are looked for in it). */
const visibleTextOf = perPage((page: ParsedPage) => textOf(page.body ?? page.root, Infinity, Infinity));

/** Something that reads like a phone number: 9 to 15 digits with the usual separators (years and prices fall short). */
const PHONE_LIKE = /(?:\+|\b)\d[\d ().\/-]{6,20}\d/g;

function phoneInText(page: ParsedPage): string | undefined {
  for (const match of visibleTextOf(page).matchAll(PHONE_LIKE)) {
    const digits = match[0].replace(/\D/g, '').length;
    if (digits >= 9 && digits <= 15) return match[0];
  }
  return undefined;
}

const clickToCall = pageCheck({
  id: 'click-to-call',
  title: 'Tap to call',
  why: 'Most visitors are on a phone: a number they can tap to call turns interest into a call in one step; a number they must copy often does not.',
  fix: 'Make your phone number tappable (a "tel:" link), in the header or next to the main button, so visitors on a phone call you with one tap.',
  topic: 'lead-capture',
  judge(ctx) {
    const link = findOnPages(ctx.pages, (page) => page.elements('a').find((el) => startsWith(el, 'tel:')));
    if (link) return pass(`Phone link ${quote(attr(link.found, 'href'), 60)} ${onPage(link.page, ctx)}`);
    const number = findOnPages(ctx.pages, phoneInText);
    if (number) return warn(`The number ${quote(number.found, 60)} ${onPage(number.page, ctx)} is text, not a tel: link visitors can tap`);
    return fail(`No phone number or tel: link on the ${pagesChecked(ctx)} checked`);
  },
});

const emailLink = pageCheck({
  id: 'email-link',
  title: 'Email link',
  why: 'Some people, and most businesses, prefer to write an email; a link that opens their mail app saves them copying the address.',
  fix: 'Show your email address as a link that opens an email (a "mailto:" link), in the footer and on the contact page.',
  topic: 'lead-capture',
  judge(ctx) {
    const link = findOnPages(ctx.pages, (page) => page.elements('a').find((el) => startsWith(el, 'mailto:')));
    if (link) return pass(`Email link ${quote(attr(link.found, 'href'), 80)} ${onPage(link.page, ctx)}`);
    return warn(`No mailto: link on the ${pagesChecked(ctx)} checked`);
  },
});

const REVIEW_TYPES = new Set(['Review', 'AggregateRating']);
const REVIEW_WORDS = /testimonial|\breviews?\b|what (?:our )?(?:clients|customers|patients|people) (?:say|think)|★|⭐/i;
/** A class or id naming a reviews section ("testimonials", "elementor-reviews"), not "preview". */
const REVIEW_SECTION = /(?:^|[^a-z])(?:testimonial|review)/i;
const REVIEW_CONTAINERS = ['section', 'div', 'aside', 'ul'];

function reviewsOn(page: ParsedPage): string | undefined {
  const schema = jsonLdOf(page).nodes.find((item) => item.types.some((type) => REVIEW_TYPES.has(type)) || 'aggregateRating' in item.node || 'review' in item.node);
  if (schema) return `review structured data (${cutText(schema.types.join('/'), 60)})`;
  for (const tag of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']) {
    const heading = page.elements(tag).find((el) => REVIEW_WORDS.test(textOf(el, 300)));
    if (heading) return `the heading ${quote(textOf(heading, 300), 100)}`;
  }
  for (const tag of REVIEW_CONTAINERS) {
    const section = page.elements(tag).find((el) => REVIEW_SECTION.test(attr(el, 'class')) || REVIEW_SECTION.test(attr(el, 'id')));
    if (section) return `a <${tag}> marked ${quote(attr(section, 'id') || attr(section, 'class'), 60)}`;
  }
  return undefined;
}

const reviews = pageCheck({
  id: 'reviews',
  title: 'Reviews and testimonials',
  why: 'New clients trust other clients more than any advert: visible reviews are one of the strongest reasons people get in touch.',
  fix: 'Show a few real testimonials or your Google reviews (a reviews widget keeps them current) on the home page, near the main button.',
  topic: 'reviews',
  judge(ctx) {
    const widget = findProvider(ctx.pages, REVIEW_PROVIDERS);
    if (widget) return pass(`Reviews widget: ${describeReference(widget, ctx)}`);
    const found = findOnPages(ctx.pages, reviewsOn);
    if (found) return pass(`Reviews ${onPage(found.page, ctx)}: ${found.found}`);
    return warn(`No reviews, testimonials or review widget on the ${pagesChecked(ctx)} checked`);
  },
});

const CALL_TO_ACTION =
  /\b(book(?:ing)?|call|contact|get started|get (?:a|your) (?:free )?quote|quote|schedule|appointments?|free|try|sign ?up|request|enquire|inquire)\b/i;
/** How far down the page still counts as "near the top" (the first screen or so of a phone). */
const TOP_TEXT_CHARS = 1_500;
const TOP_ELEMENTS = 30;

function isClickable(el: Element): boolean {
  if (el.name === 'a' || el.name === 'button') return true;
  if (el.name === 'input') return ['submit', 'button'].includes(attr(el, 'type').toLowerCase());
  return attr(el, 'role').toLowerCase() === 'button';
}

const clickableText = (el: Element) => tidy(el.name === 'input' ? attr(el, 'value') : textOf(el, 200)) || tidy(attr(el, 'aria-label'));

interface CallToAction {
  el: Element;
  text: string;
  wordsBefore: number;
}

/** How many calls to action near the top are looked at: the first that works is the one that counts. */
const MAX_CALLS_TO_ACTION = 5;

/**
 * The links and buttons with call-to-action words near the top of the body, in document order: within the
 * first TOP_TEXT_CHARS of text or TOP_ELEMENTS elements. A header's own buttons count without using up that
 * budget; a <nav> menu's links are navigation, not calls to action.
 */
function topCallsToAction(body: Element): CallToAction[] {
  let elements = 0;
  const textSoFar: string[] = [];
  let chars = 0;
  const found: CallToAction[] = [];
  const headers = new Set<object>();
  const inHeader = (el: Element) => el.parent !== null && headers.has(el.parent);
  walk(body, {
    enter: (el) => {
      if (el.name === 'nav' || HIDDEN_CONTENT.has(el.name)) return 'skip';
      const headerPart = el.name === 'header' || inHeader(el);
      if (headerPart) headers.add(el);
      else elements += 1;
      const text = isClickable(el) ? clickableText(el) : '';
      if (text && CALL_TO_ACTION.test(text)) {
        found.push({ el, text, wordsBefore: countWords(textSoFar.join(' ')) });
        if (found.length === MAX_CALLS_TO_ACTION) return 'stop';
        // Its inside is not another call to action; its words come before the next one all the same.
        if (chars <= TOP_TEXT_CHARS) textSoFar.push(text);
        chars += text.length;
        return 'skip';
      }
      return elements > TOP_ELEMENTS && chars > TOP_TEXT_CHARS ? 'stop' : undefined;
    },
    text: (data) => {
      if (chars <= TOP_TEXT_CHARS) textSoFar.push(data);
      chars += data.length;
    },
  });
  return found;
}

/**
 * Where a call to action leads: a link's address (checked by the crawler when it is the site's own), or
 * undefined for a button without one (it opens a form or a widget on the page).
 */
function callToActionTarget(ctx: HomeContext, cta: CallToAction, links: ReadonlyMap<string, CheckedLink>): Target | undefined {
  if (cta.el.name !== 'a' || !('href' in cta.el.attribs)) return undefined;
  const href = attr(cta.el, 'href').trim();
  // "#book", "javascript:…": the page itself handles it, like a button.
  if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return undefined;
  return targetOf(ctx, href, ctx.home, links);
}

const ctaAboveFold = pageCheck({
  id: 'cta-above-fold',
  title: 'A clear next step at the top',
  why: 'Visitors decide within seconds; a button like "Book a free consultation" at the top tells them what to do next before they scroll away.',
  fix: 'Put one clear button near the top of the home page ("Book a call", "Get a quote") that leads straight to booking or the contact form.',
  topic: 'lead-capture',
  judge(ctx) {
    const found = ctx.home.body ? topCallsToAction(ctx.home.body) : [];
    const links = checkedLinks(ctx);
    const judged = found.map((cta) => ({ cta, target: callToActionTarget(ctx, cta, links) }));
    const working = judged.find(({ target }) => !target?.problem);
    if (working) {
      const { cta, target } = working;
      const leads = target ? `, leading to ${target.label}` : '';
      return pass(`${quote(cta.text, 80)} near the top of the home page (after about ${plural(cta.wordsBefore, 'word')})${leads}`);
    }
    if (judged.length > 0) {
      return {
        ...fail(...limitLines(judged.map(({ cta, target }) => `${quote(cta.text, 80)} near the top of the home page leads to ${target!.label}, which answers ${target!.problem}`))),
        fix: 'The button at the top leads to an error page, so visitors who want to get in touch are lost: point it to your booking or contact page (check it after changing page addresses).',
      };
    }
    return warn('No link or button like "Book", "Call", "Contact" or "Get a quote" near the top of the home page');
  },
});

const LEAD_MAGNET_WORDS = /newsletter|subscribe|download|guide|free|checklist|e-?book/i;

/** The page's sign-up forms: an email field, no message box, and words around it that promise something. */
const signUpFormsOf = perPage((page: ParsedPage): { form: EmailForm; word: string }[] => {
  const found: { form: EmailForm; word: string }[] = [];
  for (const form of emailFormsOf(page)) {
    if (form.hasMessageBox) continue;
    const el = form.form;
    const around = [textOf(el, 1_000), el.parent ? textOf(el.parent, 1_000) : '', textOf(previousElement(el) ?? el, 300)].join(' ');
    const word = LEAD_MAGNET_WORDS.exec(around)?.[0];
    if (word) found.push({ form, word });
  }
  return found;
});

const leadMagnet = pageCheck({
  id: 'lead-magnet',
  title: 'Newsletter or free download',
  why: 'Most visitors are not ready to buy on the first visit; a newsletter or a free guide in exchange for an email lets you stay in touch until they are.',
  fix: 'Offer something useful for an email address (a checklist, a short guide, a monthly tip) with a simple sign-up form connected to your email tool.',
  topic: 'newsletter',
  judge(ctx) {
    const provider = findProvider(ctx.pages, NEWSLETTER_PROVIDERS);
    if (provider) return pass(describeReference(provider, ctx));
    const links = checkedLinks(ctx);
    const judged = ctx.pages.flatMap((page) => signUpFormsOf(page)).map((found) => ({ ...found, target: formTarget(ctx, found.form, links) }));
    const working = judged.find(({ target }) => !target.problem);
    if (working) return pass(`a sign-up form (mentions ${quote(working.word)}) ${onPage(working.form.page, ctx)}, sending to ${working.target.label}`);
    if (judged.length > 0) {
      return {
        ...warn(...limitLines(judged.map(({ form, target }) => `The sign-up form ${onPage(form.page, ctx)} sends to ${target.label}, which answers ${target.problem}`))),
        fix: 'Sign-ups through the form are probably lost: fix the address it sends to (a moved page or a removed plugin) and sign up once yourself to test it.',
      };
    }
    return warn(`No newsletter or lead-magnet sign-up on the ${pagesChecked(ctx)} checked`);
  },
});

export const LEADS_CHECKS: readonly CheckDefinition[] = [
  contactForm,
  bookingLink,
  chatWidget,
  clickToCall,
  emailLink,
  reviews,
  ctaAboveFold,
  leadMagnet,
];

export function leadsChecks(ctx: AuditContext): CheckResult[] {
  return runCategory('leads', LEADS_CHECKS, ctx);
}
