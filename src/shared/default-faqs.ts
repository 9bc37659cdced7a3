/** The ten built-in FAQs shown when no FAQ is stored (seed: "ten built-in defaults"). Answers are HTML. */
export interface FaqItem {
  id: string;
  question: string;
  answer: string;
}

export const DEFAULT_FAQS: readonly FaqItem[] = [
  {
    id: 'default-1',
    question: 'What exactly do you automate?',
    answer:
      '<p>We automate the path from first enquiry to booked appointment: instant replies to new leads, follow-up sequences, appointment confirmations and reminders, and the landing pages and forms that capture leads in the first place.</p>',
  },
  {
    id: 'default-2',
    question: 'Who is this for?',
    answer:
      '<p>Clinics, coaches, consultants and other appointment-based small businesses that get enquiries by web form, phone, email or social media and want more of them to turn into paying clients.</p>',
  },
  {
    id: 'default-3',
    question: 'How long does setup take?',
    answer:
      '<p>Most systems go live in <strong>10 to 14 days</strong>. Week one is mapping your lead flow and writing the messages with you; week two is building, testing and switching it on.</p>',
  },
  {
    id: 'default-4',
    question: 'Do I need to change my booking software or CRM?',
    answer:
      '<p>Usually not. We connect to the calendar, CRM and phone tools you already use. If you have nothing in place yet, we recommend and set up a simple stack for you.</p>',
  },
  {
    id: 'default-5',
    question: 'Will the messages sound robotic?',
    answer:
      '<p>No. We write every message in your voice and review it with you before launch. AI replies are grounded in your own services, prices and policies, and hand over to a person whenever a lead asks for one.</p>',
  },
  {
    id: 'default-6',
    question: 'Is patient and client data kept private?',
    answer:
      '<p>Yes. We collect only what is needed to contact and book a lead, store it with your existing tools where possible, and sign a data-processing agreement with every client.</p>',
  },
  {
    id: 'default-7',
    question: 'What does it cost?',
    answer:
      '<p>Each package has a one-off setup fee and a monthly fee that covers hosting, monitoring and improvements. Create a free account or log in to see current prices on every package.</p>',
  },
  {
    id: 'default-8',
    question: 'Is there a long-term contract?',
    answer: '<p>No. Monthly plans run month to month after the setup period, and you keep the pages and content we build for you.</p>',
  },
  {
    id: 'default-9',
    question: 'What is in the free online-presence audit?',
    answer:
      '<p>We check your website speed and clarity, your reviews, how fast enquiries get a reply, and how easy it is to book. You get a short report with the three changes that will bring you the most new clients.</p>',
  },
  {
    id: 'default-10',
    question: 'How do we get started?',
    answer:
      '<p>Book a short call or request the free audit. We will look at how leads reach you today and recommend the package that fits, with no obligation.</p>',
  },
];
