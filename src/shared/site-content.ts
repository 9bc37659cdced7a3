/**
 * Editable site texts (PRODUCT.md: hero, pains, offerings, testimonials, CTAs, footer, booking URL,
 * policies, currency, business location). Stored as one document; every field has a good default, so a
 * partial or missing document still renders a complete site.
 */
import { COPYRIGHT_YEAR } from './constants';
import { z } from './zod';

/** A link visitors follow: a full http(s) address. */
const webAddress = () => z.url({ protocol: /^https?$/, error: 'must be a full web address starting with https://' });

/** The earliest year the footer's copyright may name (a business's founding year is sometimes shown). */
export const COPYRIGHT_YEAR_MIN = 1900;

/** The latest: next year, for a site launched in the last days of December. Never shrinks, so a stored year stays valid. */
export const copyrightYearMax = (now = new Date()) => now.getUTCFullYear() + 1;

/** The year after "©" in the footer: a four-digit year from 1900 to next year, one message for every way to miss. */
export function copyrightYearSchema(now = new Date()) {
  const message = `must be a four-digit year from ${COPYRIGHT_YEAR_MIN} to ${copyrightYearMax(now)}, such as ${COPYRIGHT_YEAR}`;
  return z.number({ error: message }).int({ error: message }).min(COPYRIGHT_YEAR_MIN, { error: message }).max(copyrightYearMax(now), { error: message });
}

const offering = z.object({ title: z.string().min(1).max(80), text: z.string().min(1).max(300) });
const testimonial = z.object({
  quote: z.string().min(1).max(600),
  name: z.string().min(1).max(80),
  role: z.string().max(120),
});

export const siteContentSchema = z.object({
  siteName: z.string().min(1).max(80).default('Autoflow Agency'),
  tagline: z.string().max(160).default('AI automation for clinics, coaches and small businesses'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as USD')
    .default('USD'),
  bookingUrl: webAddress().default('https://cal.com/autoflow-agency/intro-call'),
  hero: z
    .object({
      headline: z.string().min(1).max(120).default('We automate your'),
      rotatingPhrases: z
        .array(z.string().min(1).max(60))
        .min(1)
        .max(12)
        .default(['lead outreach', 'lead nurturing', 'appointment reminders', 'lead-capture funnels']),
      subheadline: z
        .string()
        .max(300)
        .default(
          'Done-for-you AI systems that reply to every enquiry in seconds, follow up until they book, and keep your calendar full — without adding staff.',
        ),
      bookCallLabel: z.string().min(1).max(40).default('Book a call'),
    })
    .prefault({}),
  whatWeBuild: z
    .object({
      heading: z.string().min(1).max(120).default('What we build'),
      painsIntro: z.string().max(120).default('Tired of'),
      pains: z
        .array(z.string().min(1).max(120))
        .min(1)
        .max(12)
        .default([
          'leads going cold before anyone calls back',
          'no-shows leaving gaps in your calendar',
          'chasing enquiries by hand every evening',
          'ads that bring clicks but not bookings',
          'follow-ups that never happen',
        ]),
      offerings: z
        .array(offering)
        .length(4)
        .default([
          {
            title: 'Lead outreach',
            text: 'Personalised first contact by SMS, email and WhatsApp within a minute of every new enquiry.',
          },
          {
            title: 'Lead nurturing',
            text: 'Sequences that answer questions, handle objections and move warm leads to a booked call.',
          },
          {
            title: 'Appointment reminders',
            text: 'Confirmations and reminders that cut no-shows and rebook cancellations automatically.',
          },
          {
            title: 'Lead-capture funnels',
            text: 'Landing pages, forms and chat that turn visitors into qualified, booked appointments.',
          },
        ]),
    })
    .prefault({}),
  testimonials: z
    .array(testimonial)
    .length(4)
    .default([
      {
        quote:
          'Our front desk used to spend two hours a day returning calls. Now every enquiry gets an answer in under a minute and our consult bookings are up 38%.',
        name: 'Dr. Amelia Hart',
        role: 'Owner, Harbourside Dental',
      },
      {
        quote:
          'The reminder flows cut our no-show rate from 22% to 6% in the first month. It paid for itself before the second invoice.',
        name: 'Marcus Lee',
        role: 'Clinic Manager, Northside Physio',
      },
      {
        quote:
          'I finally have a follow-up system that runs while I coach. Discovery calls book themselves straight into my calendar.',
        name: 'Priya Nair',
        role: 'Executive Coach',
      },
      {
        quote:
          'Clear pricing, fast build, and they actually explained what the automation does. Our funnel converts at 11% now.',
        name: 'Tom Becker',
        role: 'Founder, Becker Fitness Studios',
      },
    ]),
  freeAuditCta: z
    .object({
      heading: z.string().min(1).max(120).default('Get a free online-presence audit'),
      text: z
        .string()
        .max(400)
        .default(
          'We review your website, reviews, response times and booking flow, then send you a short report with the three fixes that will win you the most new clients.',
        ),
      buttonLabel: z.string().min(1).max(40).default('Request my free audit'),
    })
    .prefault({}),
  cta: z
    .object({
      heading: z.string().min(1).max(120).default('Ready to stop losing leads?'),
      text: z
        .string()
        .max(400)
        .default('Book a 20-minute call. We will map your lead flow and show you exactly what we would automate first.'),
      buttonLabel: z.string().min(1).max(40).default('Book a call'),
    })
    .prefault({}),
  footer: z
    .object({
      contactEmail: z.email({ error: 'must be an email address such as hello@example.com' }).default('hello@autoflow.agency'),
      socialLabel: z.string().min(1).max(40).default('LinkedIn'),
      socialUrl: webAddress().default('https://www.linkedin.com/company/autoflow-agency'),
      copyrightYear: copyrightYearSchema().default(COPYRIGHT_YEAR),
    })
    .prefault({}),
  business: z
    .object({
      legalName: z.string().max(120).default('Autoflow Agency Ltd.'),
      latitude: z.number().min(-90).max(90).nullable().default(null),
      longitude: z.number().min(-180).max(180).nullable().default(null),
    })
    .prefault({}),
});

export type SiteContent = z.infer<typeof siteContentSchema>;

/** The stored document merged over the defaults; an invalid document falls back to the defaults. */
export function resolveSiteContent(stored: unknown): SiteContent {
  const parsed = siteContentSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : siteContentSchema.parse({});
}
