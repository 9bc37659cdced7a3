/**
 * The chat assistant's answer to one visitor question, from the site's own content: PostgreSQL full-text
 * search (the same query on PGlite and PostgreSQL) over FAQs, services, packages and published articles,
 * with links to the pages it used. A matching FAQ answers in its own words; otherwise the best pages are
 * listed. Nothing price-related is read. No match: confident = false, so the widget offers a person.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ChatAuthor, ChatSettings, ChatSource } from '../../../shared/chat';
import { db } from '../../db';
import { articles, faqs, packages, searchDocument, services } from '../../db/schema';

export interface AssistantReply {
  body: string;
  sources: ChatSource[];
  confident: boolean;
}

export interface AssistantContext {
  settings: ChatSettings;
  history: { author: ChatAuthor; body: string }[];
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

interface Hit {
  kind: 'faq' | 'service' | 'package' | 'article';
  title: string;
  href: string;
  text: string;
  rank: number;
}

const MAX_SOURCES = 3;
const MAX_ANSWER = 900;

/** Any of the question's words (plainto_tsquery joins them with AND; a chat question rarely has them all). */
const anyWordQuery = (question: string): SQL => sql`replace(plainto_tsquery('english', ${question})::text, '&', '|')::tsquery`;

const htmlToText = (html: string) =>
  html
    .replace(/<(br|\/p|\/li|\/h\d)[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`);

async function search(question: string): Promise<Hit[]> {
  const q = anyWordQuery(question);
  const rank = (doc: SQL) => sql<number>`ts_rank(${doc}, ${q})`;
  const matches = (doc: SQL) => sql`${doc} @@ ${q}`;
  const faqDoc = searchDocument.faqs(faqs);
  const serviceDoc = searchDocument.services(services);
  const packageDoc = searchDocument.packages(packages);
  const articleDoc = searchDocument.articles(articles);
  const [faqRows, serviceRows, packageRows, articleRows] = await Promise.all([
    db()
      .select({ id: faqs.id, title: faqs.question, text: faqs.answer, rank: rank(faqDoc) })
      .from(faqs)
      .where(matches(faqDoc))
      .orderBy(sql`4 desc`)
      .limit(MAX_SOURCES),
    db()
      .select({ id: services.id, title: services.name, text: services.shortText, rank: rank(serviceDoc) })
      .from(services)
      .where(matches(serviceDoc))
      .orderBy(sql`4 desc`)
      .limit(MAX_SOURCES),
    db()
      .select({ id: packages.id, title: packages.name, text: packages.shortText, rank: rank(packageDoc) })
      .from(packages)
      .where(sql`${packages.isActive} and ${matches(packageDoc)}`)
      .orderBy(sql`4 desc`)
      .limit(MAX_SOURCES),
    db()
      .select({ id: articles.slug, title: articles.title, text: articles.excerpt, rank: rank(articleDoc) })
      .from(articles)
      .where(sql`${articles.published} and ${matches(articleDoc)}`)
      .orderBy(sql`4 desc`)
      .limit(MAX_SOURCES),
  ]);
  const hits: Hit[] = [
    ...faqRows.map((r) => ({ kind: 'faq' as const, title: r.title, href: `/#faq-${r.id}`, text: htmlToText(r.text), rank: Number(r.rank) })),
    ...serviceRows.map((r) => ({ kind: 'service' as const, title: r.title, href: `/service/${r.id}`, text: r.text, rank: Number(r.rank) })),
    ...packageRows.map((r) => ({ kind: 'package' as const, title: r.title, href: `/package/${r.id}`, text: r.text, rank: Number(r.rank) })),
    ...articleRows.map((r) => ({ kind: 'article' as const, title: r.title, href: `/article/${r.id}`, text: r.text, rank: Number(r.rank) })),
  ];
  return hits.sort((a, b) => b.rank - a.rank);
}

const NO_ANSWER =
  "I couldn't find an answer to that on our site. Leave your name and email and a person from our team will get back to you.";

export async function assistantReply(question: string, ctx: AssistantContext): Promise<AssistantReply> {
  const hits = await search(question);
  let reply: AssistantReply;
  if (hits.length === 0) {
    reply = { body: NO_ANSWER, sources: [], confident: false };
  } else {
    const best = hits[0]!;
    const top = hits.slice(0, MAX_SOURCES);
    const body =
      best.kind === 'faq' && best.text
        ? cut(best.text, MAX_ANSWER)
        : ['Here is what I found on our site:', ...top.map((h) => `• ${h.title}${h.text ? ` — ${cut(h.text, 160)}` : ''}`)].join('\n');
    reply = { body, sources: top.map((h) => ({ title: h.title, href: h.href })), confident: true };
  }
  // Search answers arrive whole; a streaming caller still gets them as one delta.
  if (!ctx.signal?.aborted) ctx.onDelta?.(reply.body);
  return reply;
}
