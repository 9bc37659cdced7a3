/**
 * Demo articles: practical guides a clinic owner or coach would actually read, each 400–900 words of
 * h2/p/ul HTML. Five are published, one is a draft (it must not appear publicly). Dates are days before
 * the seed runs, so a fresh install looks recently maintained.
 */
import type { Motif } from './illustrations';

export interface DemoAuthor {
  name: string;
  color: string;
}

export const AUTHORS = {
  elena: { name: 'Elena Marsh', color: '#14b8a6' },
  daniel: { name: 'Daniel Okafor', color: '#2553e0' },
  sofia: { name: 'Sofia Lindqvist', color: '#3b82f6' },
} satisfies Record<string, DemoAuthor>;

export interface DemoArticle {
  id: string;
  title: string;
  excerpt: string;
  content: string;
  featuredImageAlt: string;
  author: DemoAuthor;
  tags: string[];
  published: boolean;
  daysAgo: number;
  motif: Motif;
}

export const DEMO_ARTICLES: DemoArticle[] = [
  {
    id: 'speed-to-lead-first-five-minutes',
    title: 'Speed to Lead: Why the First Five Minutes Decide Who Books',
    excerpt:
      'Leads contacted within five minutes are far more likely to book than those contacted an hour later. Here is how to answer every enquiry that fast without hiring.',
    featuredImageAlt: 'Abstract illustration of signal waves spreading out from a point',
    author: AUTHORS.daniel,
    tags: ['lead response', 'clinics', 'sales process'],
    published: true,
    daysAgo: 12,
    motif: 'signal',
    content: `<p>When someone fills in your contact form, they are rarely filling in only yours. A patient looking for a physiotherapist or a client looking for a coach will usually enquire with two or three businesses in the same evening. The one that answers first, with something useful, gets the conversation. The others get silence or a polite "we've already booked elsewhere".</p>
<p>Research on inbound sales has shown the same pattern for years: the odds of reaching and qualifying a lead drop sharply after the first few minutes and keep falling with every hour. Small businesses feel this even more, because the people answering enquiries are the same people treating patients, running sessions or managing the front desk.</p>
<h2>Why small teams are slow (and it is not laziness)</h2>
<p>In almost every business we audit, slow replies have the same causes:</p>
<ul>
<li><strong>Enquiries arrive in too many places.</strong> Website forms go to one inbox, Facebook leads to another, Instagram messages to a phone, and missed calls to voicemail nobody checks until the evening.</li>
<li><strong>Peak enquiry time is peak working time.</strong> Most enquiries arrive between 11am and 2pm and again after 7pm — exactly when your team is busiest or has gone home.</li>
<li><strong>Replies are written from scratch.</strong> Each answer takes five to ten minutes to write well, so they get batched into "later".</li>
</ul>
<h2>What a five-minute response looks like in practice</h2>
<p>A fast reply does not have to be a robotic one. The best first responses we see share four traits:</p>
<ul>
<li>They use the person's name and refer to what they actually asked about.</li>
<li>They answer the most likely question straight away — price range, availability or whether you treat their problem.</li>
<li>They offer a clear next step, usually two or three concrete appointment times.</li>
<li>They come from a real name and make it easy to reply or call.</li>
</ul>
<p>Here is an example a dental practice uses for new-patient enquiries: "Hi Sarah, thanks for getting in touch about a check-up. We have new-patient appointments this Thursday at 9:30 or Friday at 2:15 — would either suit you? If you'd like to know costs first, a new-patient exam with X-rays is £85. — Priya, Harbourside Dental". It is short, specific and ends with a question that is easy to answer.</p>
<h2>How to get there without hiring</h2>
<p>You do not need a night shift. You need three things working together:</p>
<ul>
<li><strong>One pipeline for all enquiries.</strong> Connect your forms, ad lead forms, social inboxes and missed-call notifications so every new lead lands in the same place within seconds.</li>
<li><strong>An instant, personal first reply.</strong> An automation or AI assistant sends a message based on the enquiry type, using templates you have approved, and includes live availability from your calendar.</li>
<li><strong>A clean handover.</strong> When the lead replies with something complex, the conversation is flagged for a person, with the full history in front of them.</li>
</ul>
<p>Add a missed-call text-back — an automatic SMS to anyone whose call you could not answer — and you close the biggest gap most clinics have.</p>
<h2>Measure it before and after</h2>
<p>Before changing anything, measure your current median response time for one week. Take twenty recent enquiries, note when they arrived and when the first human reply went out. Most owners are surprised: the median is often between two and six hours, and weekend enquiries can wait until Monday.</p>
<p>After switching on instant replies, track three numbers every month: median first-response time, the percentage of enquiries that book an appointment, and the number of enquiries that never got a reply at all. The last one should be zero. If your enquiry-to-booking rate does not move within six weeks, the problem is usually the offer or the message, not the speed — and that is the next thing to test.</p>
<p>Speed will not fix a weak offer, but a strong offer answered slowly loses to an average offer answered now. Start with the first five minutes.</p>`,
  },
  {
    id: 'appointment-reminder-schedule-that-works',
    title: 'The Appointment Reminder Schedule That Actually Reduces No-Shows',
    excerpt:
      'Confirmation, a reminder two days before and one two hours before — plus an easy way to reschedule. The timing and wording that cut no-shows in half.',
    featuredImageAlt: 'Abstract illustration of a calendar grid with one confirmed day',
    author: AUTHORS.elena,
    tags: ['appointment reminders', 'clinics', 'no-shows'],
    published: true,
    daysAgo: 27,
    motif: 'calendar',
    content: `<p>A missed appointment costs more than the fee for that slot. It is a gap nobody else could use, a patient whose treatment plan stalls, and staff time spent chasing. Clinics we work with start with no-show rates between 12% and 25%. With a well-designed reminder flow, most get below 8% within a month.</p>
<p>The difference is rarely whether you send reminders. It is when you send them, what they say and how easy you make it to change the appointment instead of skipping it.</p>
<h2>The schedule</h2>
<ul>
<li><strong>Immediately after booking: a confirmation.</strong> Date, time, address, parking tips and what to bring. This is the message people screenshot, so make it complete.</li>
<li><strong>Two days before: the main reminder.</strong> Far enough ahead that a cancellation still gives you time to refill the slot, close enough that people remember it.</li>
<li><strong>Two hours before: the nudge.</strong> Short and practical: "See you at 3:30 at Northside Physio, 14 Mill Street. Running late? Reply and let us know."</li>
</ul>
<p>For appointments booked more than two weeks ahead, add one more reminder a week before. For same-day bookings, send only the confirmation and the two-hour nudge.</p>
<h2>Make rescheduling easier than not turning up</h2>
<p>Many no-shows are people who meant to cancel but found it awkward. Calling during opening hours, waiting on hold and explaining themselves is enough friction to make them simply not come.</p>
<p>Put a one-tap "reschedule" link in every reminder that shows real alternative times and updates your calendar directly. Clinics are often worried this will increase cancellations. In practice it turns no-shows into reschedules, and a reschedule two days ahead is a slot you can still fill.</p>
<h2>Fill the gaps automatically</h2>
<p>A freed slot is only valuable if someone takes it. Keep a waitlist of patients who asked for an earlier appointment, and when a slot opens, offer it to them by SMS, first come first served. A physio clinic we work with refills around thirty slots a month this way without anyone on the front desk lifting the phone.</p>
<h2>Wording that works</h2>
<ul>
<li><strong>Use the practitioner's name.</strong> "Your appointment with Dr. Hart" gets more responses than "your appointment".</li>
<li><strong>Ask for a reply.</strong> "Reply YES to confirm" gives you a signal and creates a small commitment.</li>
<li><strong>Mention the policy once, kindly.</strong> If you charge for late cancellations, say so in the confirmation, not in every reminder.</li>
<li><strong>Keep SMS under 160 characters</strong> where you can; long messages get skimmed.</li>
</ul>
<h2>Channels and consent</h2>
<p>SMS has the highest read rates for reminders; email is better for the confirmation with full details. Whichever you use, make sure you have consent to message, include an easy opt-out, and keep clinical details out of the text — "your appointment" is enough, the treatment name is not needed.</p>
<h2>What to track</h2>
<p>Track the no-show rate per week, the share of reminders that get a confirmation reply, and how many freed slots were refilled from the waitlist. If confirmations are low, test the wording. If no-shows stay high for one practitioner or one time of day, look at those bookings specifically: early-morning and Monday appointments often need an extra reminder the evening before.</p>`,
  },
  {
    id: 'nurture-sequences-that-dont-sound-like-robots',
    title: "How to Write a Nurture Sequence That Doesn't Sound Like a Robot",
    excerpt:
      'Most automated follow-ups read like automated follow-ups. Five principles for sequences that people reply to — with a 14-day example you can adapt.',
    featuredImageAlt: 'Abstract illustration of connected steps along a dotted path',
    author: AUTHORS.sofia,
    tags: ['lead nurturing', 'coaches', 'copywriting'],
    published: true,
    daysAgo: 46,
    motif: 'sequence',
    content: `<p>Not every lead is ready to book today. Some are comparing options, some are waiting for payday, some need to talk to a partner first. A nurture sequence keeps you present and helpful during that time, so when they are ready, you are the obvious choice.</p>
<p>The trouble is that most sequences sound exactly like what they are: a series of scheduled marketing emails. People recognise the pattern and stop reading by the second message. These five principles fix most of that.</p>
<h2>1. Write like a person, to one person</h2>
<p>Use a real sender name and write the way you would write to a client you like. Short paragraphs, plain words, no "Dear valued customer". Read each message out loud; if you would not say it, rewrite it.</p>
<h2>2. Every message answers one real question</h2>
<p>List the questions your front desk or your discovery calls hear every week: How much does it cost? How long until I see results? Is this right for someone like me? What if it does not work? Each message in the sequence should answer one of them honestly, with a specific example.</p>
<h2>3. Proof beats promises</h2>
<p>A short story about a client with the same problem — what they were struggling with, what you did, what changed — is more persuasive than any claim about your quality. Use real numbers where you can and get permission to share them.</p>
<h2>4. One clear next step, never five</h2>
<p>End every message with a single, low-effort action: reply with a question, pick a time, read one short case study. Messages with several links and buttons get fewer clicks on each.</p>
<h2>5. Stop the moment they act</h2>
<p>Nothing feels more robotic than receiving "Still thinking about it?" the day after you booked. A good sequence stops automatically when the lead books, replies or asks to stop, and a person takes over any reply that needs one.</p>
<h2>A 14-day example for a coaching business</h2>
<ul>
<li><strong>Day 0 — instant reply:</strong> thanks, one line on how you work, a link to book a discovery call.</li>
<li><strong>Day 1 — the most common question:</strong> "People often ask how many sessions it takes. Honestly, most clients work with me for three months; here is why."</li>
<li><strong>Day 3 — a client story:</strong> one paragraph, one result, one quote.</li>
<li><strong>Day 6 — the objection:</strong> address price or time directly, and explain what happens if it is not a fit.</li>
<li><strong>Day 9 — something useful for free:</strong> a short exercise or checklist they can use today, whether or not they work with you.</li>
<li><strong>Day 14 — the honest close:</strong> "I won't keep emailing. If now isn't the right time, no problem — just reply 'later' and I'll check back in three months."</li>
</ul>
<p>That last message often gets the most replies of the whole sequence, because it is the most human.</p>
<h2>Measure replies, not opens</h2>
<p>Open rates have become unreliable because many email apps pre-load messages. Track replies, bookings and unsubscribes per message instead. If one message has far more unsubscribes than the others, rewrite it first. Review the sequence every month for the first quarter; after that, every quarter is enough.</p>`,
  },
  {
    id: 'lead-capture-funnel-anatomy-for-coaches',
    title: 'Anatomy of a Lead-Capture Funnel for Coaches and Consultants',
    excerpt:
      'A focused landing page, a short application and an instant follow-up: the three parts of a funnel that books qualified discovery calls instead of tyre-kickers.',
    featuredImageAlt: 'Abstract illustration of a funnel narrowing towards a single point',
    author: AUTHORS.daniel,
    tags: ['funnels', 'coaches', 'lead generation'],
    published: true,
    daysAgo: 71,
    motif: 'funnel',
    content: `<p>If you sell through discovery calls, your calendar is your funnel's output. Too few calls and revenue stalls; too many poor-fit calls and you spend your week explaining what you do to people who will never buy. A good funnel solves both problems at once.</p>
<h2>Part 1: a landing page for one offer</h2>
<p>Your homepage talks about everything you do. A landing page talks about one offer, for one kind of person, with one action. It should answer, in order:</p>
<ul>
<li><strong>Who is this for?</strong> "For founders of 5–20 person companies who have become the bottleneck."</li>
<li><strong>What changes?</strong> The outcome in their words, not yours.</li>
<li><strong>How does it work?</strong> Three or four steps, plainly described.</li>
<li><strong>Why trust you?</strong> Two or three short client stories with names and results.</li>
<li><strong>What does it cost, roughly?</strong> Even a range filters out people who are not ready.</li>
<li><strong>What do I do next?</strong> One button: apply for a call.</li>
</ul>
<p>Most visitors arrive on a phone. Write short paragraphs, keep the button visible and make the page load in under two seconds.</p>
<h2>Part 2: a short application, not a contact form</h2>
<p>A contact form invites anyone to book your time. A short application — four to six questions — lets you decide who gets a call and prepares you for it. Good questions are easy to answer and tell you something useful:</p>
<ul>
<li>What would you like to be different six months from now?</li>
<li>What have you already tried?</li>
<li>How soon are you looking to start?</li>
<li>Which investment range is realistic for you right now?</li>
</ul>
<p>Applicants who qualify see your calendar straight away. Those who do not get a kind reply with a useful resource and an invitation to apply again later.</p>
<h2>Part 3: the instant follow-up</h2>
<p>The minutes after someone applies are when their motivation is highest. An instant personal message — "Thanks Anna, I've read your answers and I think we can help with the hiring bottleneck you mentioned" — confirms they were heard. If they have not booked within an hour, a short SMS with two suggested times recovers a surprising number of them.</p>
<p>People who apply but do not book go into a nurture sequence built from your best content: a case study, an answer to the most common objection, a practical exercise.</p>
<h2>Tracking that tells you what to fix</h2>
<p>Track four numbers per traffic source: landing-page visitors, applications, booked calls and new clients. The ratios between them point at the weak spot. Few applications from many visitors means the page or the offer is unclear. Many applications but few bookings means the follow-up is too slow. Many calls but few clients usually means the application is not qualifying enough.</p>
<p>Change one thing at a time, give each change two to four weeks, and keep a simple log of what you changed and when. After a quarter, you will know more about your buyers than any template could tell you.</p>`,
  },
  {
    id: 'ai-receptionist-what-to-automate',
    title: 'AI Receptionist: What to Automate and What to Keep Human',
    excerpt:
      'An AI assistant can answer most front-desk questions instantly. The skill is deciding which conversations it should hand to a person — and making that handover seamless.',
    featuredImageAlt: 'Abstract illustration of two speech bubbles, a question and an answer',
    author: AUTHORS.elena,
    tags: ['ai chat', 'front desk', 'clinics'],
    published: true,
    daysAgo: 98,
    motif: 'chat',
    content: `<p>Front-desk teams spend a large part of their day answering the same questions: opening hours, prices, parking, whether a treatment is right for someone, whether there is anything available this week. An AI receptionist on your website and social inboxes can answer those in seconds, at any hour. The question is not whether to automate, but where to draw the line.</p>
<h2>Good candidates for automation</h2>
<ul>
<li><strong>Practical questions</strong> with stable answers: hours, location, parking, what to bring, payment options.</li>
<li><strong>Service information</strong> taken from your own service pages: what a treatment involves, how long it takes, typical price ranges.</li>
<li><strong>Availability and booking</strong>, when the assistant reads your real calendar and books into it.</li>
<li><strong>Collecting details</strong> before a call back: name, contact details, what it is about, the best time to reach them.</li>
</ul>
<p>These conversations have clear right answers, and a fast, correct answer is what the visitor wants.</p>
<h2>What should stay with a person</h2>
<ul>
<li><strong>Anything clinical or personal.</strong> Symptoms, medication, "is this normal?" — the assistant should acknowledge the question, say a clinician will reply and collect contact details.</li>
<li><strong>Complaints and unhappy clients.</strong> Someone who is upset wants to be heard by a human. Route these immediately to the practice manager.</li>
<li><strong>Unusual requests and negotiations:</strong> special arrangements, group bookings, payment plans.</li>
<li><strong>Anything the assistant is not sure about.</strong> "I don't know, but I'll have someone get back to you by 10am tomorrow" is a perfectly good answer.</li>
</ul>
<h2>Answers only from approved content</h2>
<p>The biggest risk with AI chat is a confident wrong answer. Set the assistant up so it answers only from content you control — your services, FAQs, policies and articles — and links to the page it used. If the answer is not in that content, it says so and offers a person. Review a sample of conversations every week for the first month and turn good human answers into new FAQ entries.</p>
<h2>Design the handover</h2>
<p>A handover fails when the client has to repeat themselves. When the assistant passes a conversation on, your team should see the full transcript, the contact details and a one-line summary. The client should be told who will reply and when. Out of hours, set a realistic promise — "first thing tomorrow morning" — and keep it.</p>
<h2>Be open about it</h2>
<p>Tell people they are chatting with an assistant, give it a friendly name, and make "talk to a person" always available. Clients do not mind automation that helps them; they mind being trapped in it.</p>
<h2>What success looks like</h2>
<p>After a month, look at how many conversations were resolved without a person, how many turned into bookings, and how many were handed over. A healthy setup usually resolves most practical questions on its own and hands over around one conversation in five. If it hands over far more, add content; if it hands over almost nothing, check it is not answering questions it should not.</p>`,
  },
  {
    id: 'review-requests-on-autopilot',
    title: 'Review Requests on Autopilot: Timing, Wording and Getting It Right',
    excerpt:
      'How to ask every happy client for a review at the right moment, give unhappy clients a private way to reach you, and stay within platform rules.',
    featuredImageAlt: 'Abstract illustration of five stars above a progress bar',
    author: AUTHORS.sofia,
    tags: ['reviews', 'reputation', 'local seo'],
    published: false,
    daysAgo: 3,
    motif: 'stars',
    content: `<p>For local businesses, reviews do two jobs at once: they persuade the people comparing you with competitors, and they help you appear in local search results. Yet most businesses collect reviews in bursts — a push once a year, then nothing. A steady, automated request process works better and takes no staff time once it is set up.</p>
<h2>Timing is most of the result</h2>
<p>Ask while the experience is fresh and positive. For most clinics and studios, a few hours after the visit works best; for longer programmes such as coaching, ask after a milestone the client is happy about, not at the end of the contract.</p>
<ul>
<li><strong>Same day, two to four hours after the visit</strong> for treatments and appointments.</li>
<li><strong>After the third or fourth session</strong> for ongoing programmes.</li>
<li><strong>One gentle reminder</strong> three days later if there is no response, and then stop.</li>
</ul>
<h2>Ask for feedback first</h2>
<p>Start with a simple question — "How was your visit today?" — and let the answer decide the next step. Clients who are happy get a one-tap link to your review page. Clients with a concern are invited to tell you directly, and the message goes straight to the manager.</p>
<p>Important: do not hide the public review option from anyone. Platform rules, including Google's, do not allow "review gating" that only sends happy clients to review. Offer the private route as a faster way to fix a problem, while keeping the public link available to everyone.</p>
<h2>Wording that gets a response</h2>
<ul>
<li>Keep it personal and short: "Hi Tom, thanks for coming in today. Would you mind sharing a quick review? It really helps other people find us."</li>
<li>Use the practitioner's name where clients know them.</li>
<li>Send the direct link to the review form, not to your profile page.</li>
<li>Never offer discounts or gifts in exchange for reviews; it breaks platform rules and consumer protection law in many countries.</li>
</ul>
<h2>Reply to every review</h2>
<p>Thank people for positive reviews by name and mention something specific. For negative reviews, reply calmly, acknowledge the experience, and invite the person to continue the conversation privately. Prospective clients read your replies as closely as the reviews themselves. In healthcare, never confirm that someone is a patient or discuss their treatment in a public reply.</p>
<h2>What to track</h2>
<p>Track the number of new reviews per month, your average rating over the last 90 days, the share of requests that lead to a review, and how many concerns arrived through the private route. A steady flow of recent reviews matters more than a large total from years ago.</p>`,
  },
];
