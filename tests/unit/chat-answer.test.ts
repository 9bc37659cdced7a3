import { describe, expect, it } from 'vitest';
import {
  clip,
  composeSearchAnswer,
  htmlToText,
  isConfidentHit,
  isPriceQuestion,
  NO_ANSWER_BODY,
  personAnswer,
  PRICE_REDACTED,
  priceSafeStream,
  redactPrices,
  searchTerms,
  sourcesOf,
  type SearchHit,
} from '../../src/shared/chat-answer';

const hit = (over: Partial<SearchHit> = {}): SearchHit => ({
  kind: 'faq',
  refId: 'setup',
  title: 'How long does setup take?',
  href: '/#faq-setup',
  snippet: 'Most systems go live in 10 to 14 days.',
  rank: 0.13,
  matched: 3,
  titleMatched: 3,
  total: 3,
  ...over,
});

describe('price questions', () => {
  it.each(['How much does it cost?', 'What are your prices?', 'pricing', 'Is it expensive?', 'What are the fees?', 'Can I get a quote?', 'What does the starter package cost'])(
    'recognises %s',
    (q) => expect(isPriceQuestion(q)).toBe(true),
  );
  it.each(['How long does setup take?', 'How much time does setup need?', 'Do you work with clinics?', 'What is the conversion rate?'])('leaves %s alone', (q) =>
    expect(isPriceQuestion(q)).toBe(false),
  );
});

describe('redactPrices', () => {
  it.each([
    ['It costs $1,500 to start.', `It costs ${PRICE_REDACTED} to start.`],
    ['Only 1500 USD.', `Only ${PRICE_REDACTED}.`],
    ['From €99/month.', `From ${PRICE_REDACTED}.`],
    ['£49 per month, billed yearly', `${PRICE_REDACTED}, billed yearly`],
    ['USD 20 a seat', `${PRICE_REDACTED}`],
    ['It is 300 dollars', `It is ${PRICE_REDACTED}`],
    ['Setup: $2k', `Setup: ${PRICE_REDACTED}`],
    ['US$ 1.200,50 each', `${PRICE_REDACTED} each`],
    ['99€ monthly', `${PRICE_REDACTED} monthly`],
  ])('%s', (input, output) => expect(redactPrices(input)).toBe(output));

  it('keeps numbers that are not money', () => {
    const text = 'Most systems go live in 10 to 14 days, and 60 seconds is our reply time in 2025.';
    expect(redactPrices(text)).toBe(text);
  });
});

describe('text', () => {
  it('turns HTML into plain text without gaps before punctuation', () => {
    expect(htmlToText('<p>Live in <strong>10 to 14 days</strong>.</p><ul><li>One&nbsp;&amp; two</li><li>three</li></ul>')).toBe(
      'Live in 10 to 14 days. One & two three',
    );
  });
  it('clips at a word with an ellipsis', () => {
    expect(clip('one two three four five', 12)).toBe('one two…');
    expect(clip('short', 12)).toBe('short');
  });
  it('drops the words questions are wrapped in', () => {
    expect(searchTerms('Can you please tell me how long setup takes?')).toBe('Can you me how long setup takes?');
  });
});

describe('confidence', () => {
  it('is confident when the question is in the title', () => expect(isConfidentHit(hit())).toBe(true));
  it('needs at least half of the question', () => expect(isConfidentHit(hit({ matched: 1, titleMatched: 1, total: 3 }))).toBe(false));
  it('does not answer from a lone word found only in a body', () => expect(isConfidentHit(hit({ matched: 1, titleMatched: 0, total: 1 }))).toBe(false));
  it('accepts every word of a longer question found in a body', () => expect(isConfidentHit(hit({ matched: 2, titleMatched: 0, total: 2 }))).toBe(true));
  it('rejects a rank under the floor', () => expect(isConfidentHit(hit({ rank: 0.001 }))).toBe(false));
  it('rejects no match at all', () => expect(isConfidentHit(hit({ matched: 0, titleMatched: 0 }))).toBe(false));
});

describe('composeSearchAnswer', () => {
  it('answers with the best FAQ and links it', () => {
    const answer = composeSearchAnswer([hit(), hit({ kind: 'service', refId: 'x', href: '/service/x', title: 'X', snippet: 'x', matched: 2, titleMatched: 1 })]);
    expect(answer).toEqual({
      body: 'Most systems go live in 10 to 14 days.',
      sources: [
        { title: 'How long does setup take?', href: '/#faq-setup' },
        { title: 'X', href: '/service/x' },
      ],
      confident: true,
    });
  });
  it('lists the top matches when no FAQ is best, without prices', () => {
    const answer = composeSearchAnswer([
      hit({ kind: 'package', href: '/package/starter', title: 'Starter', snippet: 'Everything for $2,000 a month.' }),
      hit({ kind: 'article', href: '/article/a', title: 'An article', snippet: 'How clinics answer leads.' }),
    ]);
    expect(answer.body).toBe(`Here is what I found:\n\nStarter: Everything for ${PRICE_REDACTED}.\n\nAn article: How clinics answer leads.`);
    expect(answer.body).not.toContain('2,000');
    expect(answer.sources.map((s) => s.href)).toEqual(['/package/starter', '/article/a']);
  });
  it('says it has no good answer and offers a person', () => {
    expect(composeSearchAnswer([hit({ matched: 1, titleMatched: 0, total: 4 })])).toEqual({ body: NO_ANSWER_BODY, sources: [], confident: false });
    expect(composeSearchAnswer([]).confident).toBe(false);
  });
  it('links at most three sources, one per address', () => {
    const hits = ['a', 'a', 'b', 'c', 'd'].map((r) => hit({ refId: r, href: `/#faq-${r}` }));
    expect(sourcesOf(hits).map((s) => s.href)).toEqual(['/#faq-a', '/#faq-b', '/#faq-c']);
  });
});

describe('personAnswer', () => {
  it('says someone will answer here while online, and points to the contact form when no email is known', () => {
    expect(personAnswer({ online: true, contactEmail: '' })).toEqual({
      body: 'Of course. Someone from our team will answer here as soon as they can. Leave your name and email below, so we can reach you if you have to go.',
      sources: [],
      confident: true,
    });
    expect(personAnswer({ online: true, contactEmail: 'ada@example.com' }).body).toBe('Of course. Someone from our team will answer here as soon as they can, or write to you at ada@example.com.');
  });

  it('promises no answer here outside business hours', () => {
    expect(personAnswer({ online: false, contactEmail: '' }).body).toBe('Our team is away right now. Leave your name and email below and a person will get back to you during business hours.');
    expect(personAnswer({ online: false, contactEmail: 'ada@example.com' }).body).toBe('Our team is away right now. A person will get back to you at ada@example.com during business hours.');
    expect(personAnswer({ online: false, contactEmail: '' }).body).not.toMatch(/answer here/);
  });
});

describe('priceSafeStream', () => {
  const run = (chunks: string[]) => {
    const out: string[] = [];
    const stream = priceSafeStream((t) => out.push(t));
    for (const c of chunks) stream.push(c);
    return { out, final: stream.finish() };
  };
  it('never releases an amount split across chunks', () => {
    const { out, final } = run(['The Starter package is $1,', '500 per', ' month and includes ', 'reminders. Another is 900', ' USD. Done', '.']);
    expect(out.join('')).not.toMatch(/\d/);
    expect(final).toBe(`The Starter package is ${PRICE_REDACTED} and includes reminders. Another is ${PRICE_REDACTED}. Done.`);
    expect(final.startsWith(out.join(''))).toBe(true);
  });
  it('releases ordinary text as it comes', () => {
    const { out } = run(['We reply ', 'within a minute, ', 'day or night. ']);
    expect(out.join('')).toBe('We reply within a minute, day or night.');
  });
});
