/**
 * "The visitor asks for a person" (src/shared/person-request.ts, decision 031): the common wordings with
 * typos and any case, inside longer messages too; and the questions of an AI-automation agency's visitors
 * that use the same words for the product ("agents", "human resources", "someone to build my site").
 */
import { describe, expect, it } from 'vitest';
import { asksForPerson, clausesOf } from '../../src/shared/person-request';

describe('asksForPerson: a person asked for', () => {
  it.each([
    // The words of the report and of the quick reply.
    'Can I talk to a real person?',
    'I would like to talk to a person.',
    // Wordings people use in chat widgets.
    'Can I talk to a human?',
    'human',
    'Human!',
    'a human please',
    'A human, please.',
    'talk to someone',
    'I want to SPEAK TO someone',
    'speak to an agent',
    'agent please',
    'can I call you',
    'Could I call you tomorrow about a custom build?',
    'operator',
    'Operator!!',
    'representative',
    'I need a representative',
    'Please connect me to a representative.',
    'Is there a real person there?',
    'Are you a real person?',
    'are you human?',
    'live agent',
    'transfer me to a live agent',
    'Put me through to someone',
    'Let me talk to a person',
    'I wanna talk to someone',
    'Is it possible to talk to a human?',
    'Is there someone I can talk to?',
    'Is there anyone I could speak with?',
    'Can someone call me?',
    'can somebody talk to me',
    'I want a human',
    'I need a real person',
    'gimme a real person',
    'Can I have a person please',
    'get me an operator',
    'I need help from a human',
    'Can I speak to one of your agents?',
    'Can I speak to a manager?',
    'How can I reach a person?',
    'How do I contact your team?',
    'customer service please',
    'talk to customer support',
    'Can I book a call with someone?',
    'Who can I speak to about pricing?',
    'speak with a human agent',
    'Not a bot please',
    "I don't want a bot, I want a person",
    // Being called or contacted.
    'Please call me tomorrow',
    'contact me at ada@example.com',
    'Could somebody get in touch?',
    'call me back please',
    "I'd like a callback",
    'Do you have a phone number?',
    'Can you give me a call on Monday?',
    'can I call your office',
  ])('%j', (text) => expect(asksForPerson(text)).toBe(true));

  it.each([
    'can i tlak to a human',
    'can i talk to a humna',
    'Can I talk to a reel person?',
    'I want to speek to somone',
    'speak to an agnet',
    'reprsentative please',
    'represenative',
    'operater',
    'opperator',
    'huamn please',
    'can I spaek to a persn',
    'can somebdy call me',
  ])('with a typo: %j', (text) => expect(asksForPerson(text)).toBe(true));

  it.each(['CAN I TALK TO A REAL PERSON??', 'SPEAK TO AN AGENT', 'hUmAn PlEaSe', 'Can I Talk To Someone’s Colleague? I’d Like To Speak To A Human'])('in any case: %j', (text) =>
    expect(asksForPerson(text)).toBe(true),
  );

  it.each([
    'Thanks for the info about packages. Could I speak to someone about a custom project?',
    "Hi there, I've read your FAQ and the articles on reminders but I still have questions — can I talk to a human?",
    "I'd rather talk to a real person than a bot, if that's OK",
    'Are you a bot? I want a real person',
    'We run three clinics in Leeds and want to automate reminders, a human please',
  ])('inside a longer message: %j', (text) => expect(asksForPerson(text)).toBe(true));
});

describe('asksForPerson: an ordinary question', () => {
  it.each([
    // The same words about the product: AI agents, "human" as a modifier, persons who build things.
    'Do you automate human resources?',
    'How do your agents work?',
    'how do your agents work',
    'What are AI agents?',
    'agents',
    'How many agents can I run?',
    'Do you build AI agents for clinics?',
    'Can I talk to your AI agent?',
    'Can I see a demo of the agent?',
    'Tell me about your services and your agents',
    'Is a human in the loop?',
    'Is there a human review step?',
    'How human does the AI sound?',
    'Do you offer human-like voice assistants?',
    'I want someone to build me a website',
    'I need someone who can automate my invoices',
    'I need a person to manage my social media',
    'I need an agent that books appointments',
    'Do you have someone who does SEO?',
    'Who is the person behind Autoflow?',
    'What does a representative project look like?',
    'How does the operator dashboard work?',
    'I am a real estate agent, can you help me get more leads?',
    'Are your reviews from real people?',
    'Do you build personas for marketing?',
    'Do you build personal websites?',
    'Personally I prefer email marketing',
    'What about humanity?',
    'Talking points for my clinic',
    // Someone else doing the talking: the visitor's customers, or the product.
    'Can your agents talk to my customers on WhatsApp?',
    'Can my customers speak to an agent after hours?',
    'Can my clients chat with an agent?',
    'Do your AI agents speak to real people?',
    'Do your agents talk to humans?',
    'Can the bot transfer to a human agent?',
    'Can the chatbot transfer to a real person?',
    'What happens when the bot cannot answer? Does it hand over to someone?',
    'Do you build chatbots that hand off to a human?',
    'Does the AI receptionist talk to patients?',
    'Can the voice agent call my patients?',
    'How do my customers contact me?',
    'How do leads get in touch with me?',
    // Calls and phones as features.
    'Can I call your API from Zapier?',
    'Do you offer call tracking?',
    'Can your AI answer phone calls for my clinic?',
    'Can I connect my phone number to the agent?',
    'Do you integrate with our phone system?',
    'What should I call you?',
    'When can I reach you?',
    // Everyday questions.
    'Who will I speak to on the discovery call?',
    'Do you speak German?',
    'How much are the packages?',
    'How long does setup take?',
    'Can someone from my team log in to the dashboard?',
    'Can my staff use the dashboard?',
    'How many people work at your agency?',
    'Do you help people get more leads?',
    'Can you help me with my contact form?',
    'Is your support included in the packages?',
  ])('%j', (text) => expect(asksForPerson(text)).toBe(false));
});

describe('clausesOf', () => {
  it('reads words: lower case, no accents or punctuation, contractions and typos mended, split into clauses', () => {
    expect(clausesOf('Héllo!  I’d like to TALK to a humna, please')).toEqual([['hello'], ['i', 'would', 'like', 'to', 'talk', 'to', 'a', 'human'], ['please']]);
    expect(clausesOf('Customer-service pls')).toEqual([['support', 'please']]);
  });

  it('leaves real words one letter from a keyword alone', () => {
    expect(clausesOf('personas agency urgent')).toEqual([['personas', 'agency', 'urgent']]);
  });
});
