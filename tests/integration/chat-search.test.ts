/**
 * The chat's answers from the site's own content (decision 012): search_documents kept by triggers for
 * every writer, the built-in FAQs while none is stored, sources' links, never a price, confidence.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chatSettingsSchema, DEFAULT_CHAT_SETTINGS } from '../../src/shared/chat';
import { NO_ANSWER_BODY, PRICE_ANSWER } from '../../src/shared/chat-answer';
import { DEFAULT_FAQS } from '../../src/shared/default-faqs';
import { db } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { articles, faqs, packages, searchDocuments, services } from '../../src/server/db/schema';
import { assistantReply } from '../../src/server/modules/chat/assistant';
import { importContentBundle } from '../../src/server/modules/content-transfer';
import { logger } from '../../src/server/logger';
import { freshDatabase } from '../support/db';
import { startFakeLlm } from '../support/fake-llm';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await freshDatabase();
});
afterEach(async () => {
  await handle.close();
});

const ask = (question: string) => assistantReply(question, { settings: DEFAULT_CHAT_SETTINGS, history: [] });
const hrefs = async (question: string) => (await ask(question)).sources.map((s) => s.href);

describe('the built-in FAQs (none stored)', () => {
  it('answers the exact question with its answer as plain text and links its anchor', async () => {
    const reply = await ask('How long does setup take?');
    expect(reply.confident).toBe(true);
    expect(reply.body).toBe('Most systems go live in 10 to 14 days. Week one is mapping your lead flow and writing the messages with you; week two is building, testing and switching it on.');
    expect(reply.sources[0]).toEqual({ title: 'How long does setup take?', href: '/#faq-default-3' });
  });

  it('answers a paraphrase', async () => {
    for (const [question, id] of [
      ['Can you tell me how long the setup takes?', 'default-3'],
      ['Will your messages sound like a robot?', 'default-5'],
      ['Is there a contract?', 'default-8'],
      ['What is in your free audit?', 'default-9'],
    ] as const) {
      const reply = await ask(question);
      expect(reply.confident, question).toBe(true);
      expect(reply.sources[0]?.href, question).toBe(`/#faq-${id}`);
    }
  });

  it('stops using them once an FAQ is stored', async () => {
    await db().insert(faqs).values({ id: 'onboarding', question: 'What does onboarding look like?', answer: '<p>A <em>kick-off</em> call.</p>' });
    expect(await hrefs('How long does setup take?')).not.toContain('/#faq-default-3');
    expect((await ask('What does onboarding look like?')).body).toBe('A kick-off call.');
  });
});

describe('off-topic and gibberish', () => {
  it.each(["What's the weather in Paris?", 'asdkjh qwpoe zzxq', 'Who won the football game yesterday?', '!!! ???', ''])('is not confident for %j', async (q) => {
    const reply = await ask(q);
    expect(reply).toEqual({ body: NO_ANSWER_BODY, sources: [], confident: false });
  });
});

describe('triggers keep the answers current', () => {
  it('reflects a service insert, update, rename and delete', async () => {
    await db().insert(services).values({ id: 'lead-outreach', name: 'AI Lead Outreach', shortText: 'Every enquiry answered by SMS within a minute.' });
    expect(await hrefs('lead outreach')).toContain('/service/lead-outreach');

    await db().update(services).set({ name: 'Instant Enquiry Replies' }).where(eq(services.id, 'lead-outreach'));
    expect(await hrefs('instant enquiry replies')).toContain('/service/lead-outreach');
    expect(await hrefs('lead outreach')).not.toContain('/service/lead-outreach');

    await db().update(services).set({ id: 'instant-replies' }).where(eq(services.id, 'lead-outreach'));
    expect(await hrefs('instant enquiry replies')).toContain('/service/instant-replies');
    expect(await hrefs('instant enquiry replies')).not.toContain('/service/lead-outreach');

    await db().delete(services).where(eq(services.id, 'instant-replies'));
    expect(await hrefs('instant enquiry replies')).not.toContain('/service/instant-replies');
    expect(await db().select().from(searchDocuments)).toEqual([]);
  });

  it('follows an article through publishing, a slug rename and unpublishing', async () => {
    await db().insert(articles).values({ id: 'a1', slug: 'no-show-playbook', title: 'The no-show playbook', content: '<p>Reminders <b>cut</b> no-shows.</p>', published: false });
    expect((await ask('no-show playbook')).confident).toBe(false);

    await db().update(articles).set({ published: true }).where(eq(articles.id, 'a1'));
    expect(await hrefs('no-show playbook')).toEqual(['/article/no-show-playbook']);

    await db().update(articles).set({ slug: 'no-shows' }).where(eq(articles.id, 'a1'));
    expect(await hrefs('no-show playbook')).toEqual(['/article/no-shows']);

    await db().update(articles).set({ published: false }).where(eq(articles.id, 'a1'));
    expect((await ask('no-show playbook')).confident).toBe(false);
  });

  it('hides an inactive package and answers from an updated FAQ', async () => {
    await db().insert(packages).values({ id: 'clinic-growth', name: 'Clinic Growth', shortText: 'Reminders and reviews for busy clinics.' });
    expect(await hrefs('clinic growth')).toContain('/package/clinic-growth');
    await db().update(packages).set({ isActive: false }).where(eq(packages.id, 'clinic-growth'));
    expect(await hrefs('clinic growth')).not.toContain('/package/clinic-growth');

    await db().insert(faqs).values({ id: 'hours', question: 'When can I reach you?', answer: '<p>Weekdays.</p>' });
    await db().update(faqs).set({ answer: '<p>Every day &amp; night.</p>' }).where(eq(faqs.id, 'hours'));
    expect((await ask('When can I reach you?')).body).toBe('Every day & night.');
    await db().update(faqs).set({ id: 'opening-hours' }).where(eq(faqs.id, 'hours'));
    expect(await hrefs('When can I reach you?')).toEqual(['/#faq-opening-hours']);
  });

  it('skips updates that change nothing searchable (reordering)', async () => {
    await db().insert(faqs).values({ id: 'f', question: 'Do you work weekends?', answer: '<p>Yes.</p>' });
    await db().execute(sql`update search_documents set snippet = 'marker' where ref_id = 'f'`);
    await db().update(faqs).set({ order: 5, updatedAt: new Date() }).where(eq(faqs.id, 'f'));
    const [row] = await db().select().from(searchDocuments).where(eq(searchDocuments.refId, 'f'));
    expect(row?.snippet).toBe('marker');
  });

  it('covers TRUNCATE and the content import', async () => {
    const result = await importContentBundle({
      format: 'agency-site-content',
      version: 1,
      faqs: [{ id: 'imported', question: 'Do you offer refunds?', answer: '<p>Within 30 days.</p>', order: 0 }],
      articles: [{ id: 'imp-a', slug: 'imported-article', title: 'Imported reviews guide', content: '<p>Reviews.</p>', published: true }],
    });
    expect(result.ok).toBe(true);
    expect((await ask('Do you offer refunds?')).sources[0]?.href).toBe('/#faq-imported');
    expect(await hrefs('imported reviews guide')).toContain('/article/imported-article');

    await db().execute(sql`truncate faqs`);
    expect(await hrefs('Do you offer refunds?')).not.toContain('/#faq-imported');
    expect((await ask('How long does setup take?')).sources[0]?.href).toBe(`/#faq-${DEFAULT_FAQS[2]!.id}`);
  });
});

describe('never a price', () => {
  it('answers price questions with the members link, never an amount', async () => {
    await db().insert(packages).values({ id: 'starter', name: 'Starter', shortText: 'Everything to start for $2,000, then 300 USD a month.', priceSetup: 2000, priceMonthly: 300 });
    for (const q of ['How much does the starter package cost?', 'pricing', 'What are your prices?']) {
      expect(await ask(q)).toEqual({ ...PRICE_ANSWER });
    }
  });

  it('removes amounts from answers that quote content', async () => {
    await db().insert(packages).values({ id: 'starter', name: 'Starter', shortText: 'Everything to start for $2,000, then 300 USD a month.' });
    const reply = await ask('starter package everything to start');
    expect(reply.confident).toBe(true);
    expect(reply.sources.map((s) => s.href)).toContain('/package/starter');
    expect(reply.body).toContain('Starter: Everything to start for');
    expect(reply.body).not.toMatch(/2,000|300|\$|USD/);
  });
});

describe('sources', () => {
  it('links services, packages, articles and FAQs where the site shows them', async () => {
    await db().insert(services).values({ id: 'review-automation', name: 'Review automation', shortText: 'More five-star reviews.' });
    await db().insert(packages).values({ id: 'review-boost', name: 'Review boost', shortText: 'Review automation for clinics.' });
    await db().insert(articles).values({ id: 'x1', slug: 'review-automation-guide', title: 'Review automation guide', published: true });
    await db().insert(faqs).values({ id: 'reviews', question: 'Do you do review automation?', answer: '<p>Yes.</p>' });
    const reply = await ask('review automation');
    expect(reply.sources).toHaveLength(3);
    expect(reply.sources[0]).toEqual({ title: 'Do you do review automation?', href: '/#faq-reviews' });
    for (const s of reply.sources) expect(s.href).toMatch(/^\/(#faq-reviews|service\/review-automation|package\/review-boost|article\/review-automation-guide)$/);
  });
});

describe('LLM mode without LLM_API_KEY', () => {
  it('answers from search without calling the endpoint, and warns once', async () => {
    expect(process.env.LLM_API_KEY ?? '').toBe('');
    const fake = await startFakeLlm();
    const warn = vi.spyOn(logger, 'warn');
    try {
      const settings = chatSettingsSchema.parse({ llm: { enabled: true, endpoint: fake.url, model: 'm' } });
      for (let i = 0; i < 2; i++) {
        const reply = await assistantReply('How long does setup take?', { settings, history: [] });
        expect(reply.sources[0]?.href).toBe('/#faq-default-3');
        expect(reply.body).toMatch(/^Most systems go live/);
      }
      expect(fake.requests).toHaveLength(0);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain('LLM_API_KEY is not set');
    } finally {
      warn.mockRestore();
      await fake.close();
    }
  });
});
