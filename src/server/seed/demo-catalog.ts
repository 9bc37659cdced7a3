/**
 * Demo services, packages and demos: what a small AI automation agency for clinics, coaches and local
 * businesses really sells. The mix exercises the site's rules: 6 services (the landing's "View All"
 * shows), short texts on both sides of the 120/150-character cuts, 5 active packages plus an inactive
 * one, some packages qualifying for BEST VALUE (≥ 3 services and setup ≥ 1000) and some not.
 */
import type { Motif } from './illustrations';

export interface DemoService {
  id: string;
  name: string;
  price: number;
  shortText: string;
  description: string;
  benefits: string[];
  motif: Motif;
}

export interface DemoPackage {
  id: string;
  name: string;
  shortText: string;
  description: string;
  priceSetup: number;
  priceMonthly: number;
  includedServiceIds: string[];
  features: { title: string; description: string }[];
  isActive: boolean;
  motif: Motif;
}

export interface DemoBuild {
  id: string;
  name: string;
  shortText: string;
  description: string;
  suitableFor: string[];
  motif: Motif;
}

export const DEMO_SERVICES: DemoService[] = [
  {
    id: 'ai-lead-outreach',
    name: 'AI Lead Outreach',
    price: 490,
    shortText:
      'Every new enquiry gets a personal reply by SMS and email within 60 seconds — day or night, weekends included — so you reach leads while they are still looking.',
    description: `<p>Most small businesses answer a web enquiry hours later. By then the lead has booked with whoever replied first. AI Lead Outreach connects to your forms, ads and inbox and sends a personal first message the moment an enquiry arrives.</p>
<h3>From enquiry to booked call</h3>
<ul>
<li>New leads from your website, Facebook and Google lead forms, and missed calls land in one pipeline.</li>
<li>The assistant writes a reply that uses the lead's name, what they asked about and your real availability.</li>
<li>If they answer, it keeps the conversation going and offers times; if they go quiet, the nurture sequence takes over.</li>
</ul>
<p>You approve every message template before launch, and your team can step into any conversation at any time.</p>`,
    benefits: [
      'First reply in under 60 seconds, 24/7',
      'SMS, email and WhatsApp from one inbox',
      'Missed-call text-back for every unanswered call',
      'Replies written in your tone of voice',
      'Hands over to your team with the full history',
    ],
    motif: 'signal',
  },
  {
    id: 'lead-nurturing-sequences',
    name: 'Lead Nurturing Sequences',
    price: 390,
    shortText: 'Follow-ups that answer questions and handle objections until warm leads book.',
    description: `<p>Most leads are not ready on day one. A nurture sequence keeps you in front of them with useful, well-timed messages until they are — without anyone on your team having to remember to follow up.</p>
<h2>What we build</h2>
<ul>
<li>A 14- to 30-day sequence per lead type (new patient, returning client, price shopper).</li>
<li>Messages that answer the questions your front desk hears every day, with proof: reviews, before-and-after stories, FAQs.</li>
<li>Smart stops: the sequence ends the moment someone books, replies or asks to stop.</li>
</ul>
<p>We review the numbers with you monthly and rewrite the messages that underperform.</p>`,
    benefits: [
      'Sequences tailored to each type of lead',
      'Stops automatically when a lead books or replies',
      'Objection handling written with your team',
      'Monthly performance review and rewrites',
    ],
    motif: 'sequence',
  },
  {
    id: 'appointment-reminders',
    name: 'Appointment Reminders',
    price: 290,
    shortText:
      'Confirmations, reminders and one-tap rescheduling that cut no-shows, and a waitlist that fills cancelled slots before they go empty.',
    description: `<p>Every no-show is lost revenue and a slot someone else could have used. Our reminder flows confirm each booking straight away, remind at the moments that matter, and make rescheduling easier than not turning up.</p>
<h2>Included</h2>
<ul>
<li>Instant confirmation with directions, parking and what to bring.</li>
<li>Reminders 48 hours and 2 hours before, by SMS and email.</li>
<li>One-tap "reschedule" and "cancel" links that update your calendar.</li>
<li>A waitlist that offers freed-up slots to the next person automatically.</li>
</ul>
<p>Clinics we work with typically see no-show rates fall by half within the first month.</p>`,
    benefits: [
      'Booking confirmations with directions',
      'Reminders at 48 hours and 2 hours',
      'One-tap rescheduling that updates your calendar',
      'Waitlist fills cancelled slots automatically',
      'Works with the booking system you already use',
      'No-show and rebooking report every month',
    ],
    motif: 'calendar',
  },
  {
    id: 'lead-capture-funnels',
    name: 'Lead-Capture Funnels',
    price: 1200,
    shortText: 'Landing pages and forms built to turn ad clicks and visitors into booked calls.',
    description: `<p>Sending paid traffic to a general homepage wastes money. We build focused landing pages for each offer, with a short form or booking step that captures the lead and hands it straight to your outreach and nurture flows.</p>
<h2>What you get</h2>
<ul>
<li>One landing page per offer, written and designed for mobile first.</li>
<li>Qualifying questions so your team only spends time on good-fit leads.</li>
<li>Tracking for every source, so you know which ads produce bookings, not just clicks.</li>
</ul>
<p>Pages load fast, pass accessibility checks and are yours to keep.</p>`,
    benefits: [
      'Mobile-first pages per offer',
      'Qualifying questions before the booking step',
      'Source tracking from ad click to booking',
      'A/B tests on headlines and forms',
    ],
    motif: 'funnel',
  },
  {
    id: 'ai-receptionist-chat',
    name: 'AI Receptionist Chat',
    price: 450,
    shortText:
      'A website and Instagram chat assistant that answers questions about services, prices and opening hours from your own content, and books the appointment.',
    description: `<p>Visitors who cannot get an answer leave. The AI receptionist answers common questions instantly from your own services, FAQs and policies, and when someone is ready it offers real times from your calendar.</p>
<h2>Safe by design</h2>
<ul>
<li>It only answers from content you approve, and says so when it does not know.</li>
<li>Medical and sensitive questions are handed to a person, never guessed.</li>
<li>Every conversation is saved, with the contact details it collected.</li>
</ul>
<p>Out of hours it takes a message and promises a call back, so no enquiry falls through the cracks.</p>`,
    benefits: [
      'Answers from your own approved content',
      'Books straight into your calendar',
      'Hands sensitive questions to a person',
      'Captures contact details out of hours',
      'Website and Instagram in one place',
    ],
    motif: 'chat',
  },
  {
    id: 'review-reputation-automation',
    name: 'Review & Reputation Automation',
    price: 250,
    shortText: 'Ask every happy client for a review at the right moment, and catch unhappy ones before they post.',
    description: `<p>New clients choose you by your reviews. We ask every client for feedback a few hours after their visit; happy clients get a one-tap link to Google, and anyone unhappy reaches your team privately first.</p>
<h2>How it helps</h2>
<ul>
<li>A steady flow of recent reviews instead of a burst once a year.</li>
<li>Private feedback so you can fix problems before they become public.</li>
<li>Alerts for every new public review, with a suggested reply.</li>
</ul>`,
    benefits: [
      'Review requests timed after each visit',
      'Private feedback route for unhappy clients',
      'Alerts and suggested replies for new reviews',
      'Monthly rating and volume report',
    ],
    motif: 'stars',
  },
];

export const DEMO_PACKAGES: DemoPackage[] = [
  {
    id: 'no-show-rescue',
    name: 'No-Show Rescue',
    shortText: 'Confirmations, reminders and a waitlist for practices that lose too many appointments.',
    description:
      '<p>The quickest win for a busy practice: stop losing booked appointments. We connect to your calendar, write the messages with you and switch the reminder flow on within a week.</p>',
    priceSetup: 490,
    priceMonthly: 149,
    includedServiceIds: ['appointment-reminders'],
    features: [
      { title: 'Live in 7 days', description: 'Connected to your booking system and tested with real appointments.' },
      { title: 'Waitlist included', description: 'Cancelled slots are offered to the next person automatically.' },
    ],
    isActive: true,
    motif: 'calendar',
  },
  {
    id: 'lead-response-essentials',
    name: 'Lead Response Essentials',
    shortText:
      'Instant replies, a chat assistant and reminders: the essentials for businesses that get enquiries but lose them to slow follow-up and missed calls after hours.',
    description:
      '<p>Everything a small team needs to answer every lead fast: instant outreach on every channel, an AI receptionist on your website, and reminders for the appointments it books.</p>',
    priceSetup: 990,
    priceMonthly: 349,
    includedServiceIds: ['ai-lead-outreach', 'ai-receptionist-chat', 'appointment-reminders'],
    features: [
      { title: 'One inbox', description: 'SMS, email, WhatsApp and website chat in one place for your team.' },
      { title: 'Missed-call text-back', description: 'Every unanswered call gets a text within a minute.' },
      { title: 'Quarterly tune-up', description: 'We review conversations and improve answers every quarter.' },
    ],
    isActive: true,
    motif: 'chat',
  },
  {
    id: 'clinic-growth-system',
    name: 'Clinic Growth System',
    shortText:
      'The complete patient journey for clinics — from first enquiry to booked visit to five-star review — built, run and improved for you every month.',
    description: `<p>Built for dental, physio, aesthetic and other private clinics. New enquiries get an instant reply, warm leads are nurtured until they book, every appointment is confirmed and reminded, and happy patients are asked for a review.</p>
<p>We handle setup, message writing and monthly optimisation; your front desk just sees more booked patients.</p>`,
    priceSetup: 2400,
    priceMonthly: 690,
    includedServiceIds: ['ai-lead-outreach', 'lead-nurturing-sequences', 'appointment-reminders', 'review-reputation-automation'],
    features: [
      { title: 'Patient journey map', description: 'We map your enquiry-to-visit flow with your team before building anything.' },
      { title: 'Compliance-aware messaging', description: 'Templates reviewed for consent, opt-out and health-privacy rules.' },
      { title: 'Monthly growth call', description: 'Thirty minutes on the numbers and what we change next.' },
      { title: 'Priority support', description: 'Same-business-day answers for anything that needs changing.' },
    ],
    isActive: true,
    motif: 'pulse',
  },
  {
    id: 'coach-pipeline',
    name: 'Coach Pipeline',
    shortText: 'A funnel, outreach and nurture system that fills your discovery-call calendar.',
    description:
      '<p>For coaches and consultants who sell through discovery calls. We build the landing page and application form, reply to every applicant instantly and nurture the ones who are not ready yet.</p>',
    priceSetup: 1800,
    priceMonthly: 490,
    includedServiceIds: ['lead-capture-funnels', 'ai-lead-outreach', 'lead-nurturing-sequences'],
    features: [
      { title: 'Application funnel', description: 'A landing page and short application that qualifies before the call.' },
      { title: 'Call-prep summaries', description: 'Each booked call comes with a summary of what the lead told us.' },
      { title: 'Content-led nurture', description: 'Sequences built from your best posts, videos and case studies.' },
    ],
    isActive: true,
    motif: 'growth',
  },
  {
    id: 'front-desk-autopilot',
    name: 'Front Desk Autopilot',
    shortText:
      'All six systems working together: capture, reply, nurture, book, remind and collect reviews, with one monthly report that shows exactly where your bookings come from.',
    description: `<p>Our most complete package, for practices and studios with a steady flow of enquiries and a team that is stretched. Every part of the lead journey is automated and connected, so nothing waits on a person unless it should.</p>
<p>Includes a dedicated automation specialist and a quarterly strategy session.</p>`,
    priceSetup: 3900,
    priceMonthly: 990,
    includedServiceIds: [
      'lead-capture-funnels',
      'ai-lead-outreach',
      'ai-receptionist-chat',
      'lead-nurturing-sequences',
      'appointment-reminders',
      'review-reputation-automation',
    ],
    features: [
      { title: 'Dedicated specialist', description: 'One named person who knows your business and your numbers.' },
      { title: 'Attribution report', description: 'Which sources, ads and messages produce booked appointments.' },
      { title: 'Quarterly strategy session', description: 'A half-day review of results, offers and next experiments.' },
    ],
    isActive: true,
    motif: 'orbit',
  },
  {
    id: 'launch-special-2024',
    name: 'Launch Special 2024',
    shortText: 'Our introductory bundle from last year, no longer offered to new clients.',
    description: '<p>Outreach and reminders at an introductory price for our first clients. Existing clients keep their terms.</p>',
    priceSetup: 1000,
    priceMonthly: 199,
    includedServiceIds: ['ai-lead-outreach', 'appointment-reminders'],
    features: [
      { title: 'Founding-client pricing', description: 'Locked in for as long as the account stays active.' },
      { title: 'Setup in two weeks', description: 'Connected, written and tested within fourteen days.' },
    ],
    isActive: false,
    motif: 'layers',
  },
];

export const DEMO_BUILDS: DemoBuild[] = [
  {
    id: 'dental-enquiry-assistant',
    name: 'Dental Enquiry Assistant',
    shortText:
      'A chat and SMS assistant for a three-chair dental practice that answers treatment and price questions and books new-patient exams straight into the practice calendar.',
    description: `<p>Built for a practice that was missing a third of its calls during surgery hours. The assistant answers common questions about check-ups, hygiene visits and whitening, collects insurance details and offers real exam slots.</p>
<ul><li>New-patient bookings up 41% in the first two months.</li><li>Average first response time down from 3 hours to 40 seconds.</li></ul>`,
    suitableFor: ['Dental practices', 'Orthodontists', 'Oral hygiene clinics'],
    motif: 'chat',
  },
  {
    id: 'physio-no-show-reducer',
    name: 'Physio No-Show Reducer',
    shortText: 'Reminders and a smart waitlist that took a physio clinic from 19% to 6% no-shows.',
    description: `<p>Confirmation on booking, reminders two days and two hours before, and one-tap rescheduling. Freed slots go to a waitlist of patients who asked for an earlier appointment.</p>
<ul><li>No-shows down from 19% to 6%.</li><li>Around 30 cancelled slots a month refilled automatically.</li></ul>`,
    suitableFor: ['Physiotherapy clinics', 'Chiropractors', 'Massage therapists', 'Sports injury clinics'],
    motif: 'pulse',
  },
  {
    id: 'coach-discovery-funnel',
    name: 'Coach Discovery-Call Funnel',
    shortText:
      'An application page, instant follow-up and a 21-day nurture sequence that keeps an executive coach’s calendar full of qualified discovery calls every week.',
    description: `<p>A short application replaced a generic contact form. Applicants get a personal reply within a minute, a booking link if they qualify, and a sequence of case studies if they are not ready yet.</p>
<ul><li>Discovery calls per month up from 9 to 23.</li><li>Call-to-client conversion up because every call comes with a prep summary.</li></ul>`,
    suitableFor: ['Executive coaches', 'Business coaches', 'Consultants', 'Course creators', 'Therapists in private practice'],
    motif: 'funnel',
  },
  {
    id: 'med-spa-review-engine',
    name: 'Med Spa Review Engine',
    shortText: 'Timed review requests with a private feedback route for an aesthetics clinic.',
    description: `<p>Clients get a short feedback request a few hours after treatment. Happy clients are offered a one-tap Google review link; anyone with a concern reaches the clinic manager directly.</p>
<ul><li>From 38 to 212 Google reviews in six months, rating 4.9.</li><li>Three complaints resolved privately before they became public reviews.</li></ul>`,
    suitableFor: ['Med spas', 'Aesthetic clinics'],
    motif: 'stars',
  },
  {
    id: 'lead-qualifier-for-consultants',
    name: 'Lead Qualifier for Consultants',
    shortText: 'An outreach assistant that asks three qualifying questions before offering a call.',
    description: `<p>For a small consultancy whose partners were spending hours on calls with poor-fit leads. The assistant replies to every enquiry, asks about budget, timeline and decision-maker, and only offers partner time to qualified leads.</p>
<ul><li>Partner hours on unqualified calls down by 70%.</li><li>Every enquiry still answered within two minutes.</li></ul>`,
    suitableFor: ['Consultancies', 'Agencies', 'Accountants and advisers'],
    motif: 'target',
  },
];
