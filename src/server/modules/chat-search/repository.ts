/**
 * The chat's full-text search (decision 012): one statement, the same on PGlite and PostgreSQL, over the
 * stored weighted vectors of search_documents (kept by triggers) plus the built-in FAQs while no FAQ is
 * stored (the landing page shows those then). Nothing is computed per stored row but ts_rank.
 */
import { sql } from 'drizzle-orm';
import { db } from '../../db';
import type { SearchHit, SearchKind } from '../../../shared/chat-answer';

/** How many best-ranked rows get their matched-lexeme count; the answer uses the first three. */
const CANDIDATES = 24;

/** The built-in FAQs in the shape the statement reads (`jsonb_to_recordset`). */
export interface BuiltInFaqRow {
  id: string;
  question: string;
  href: string;
  snippet: string;
}

interface Row extends Record<string, unknown> {
  kind: SearchKind;
  ref_id: string;
  title: string;
  href: string;
  snippet: string;
  rank: number | string;
  matched: number | string;
  title_matched: number | string;
  total: number | string;
}

/**
 * Documents matching any lexeme of `terms` (OR, not plainto_tsquery's AND: visitors ask in sentences),
 * ranked by ts_rank normalised by document length (1: a short FAQ is not outranked by a long article that
 * repeats one word); the best of those are ordered by how many of the question's lexemes each contains,
 * then by how many of them are in its title.
 */
export async function searchDocumentsFor(terms: string, builtInFaqs: readonly BuiltInFaqRow[]): Promise<SearchHit[]> {
  const result = await db().execute<Row>(sql`
    with q as (
      select array_agg(lexeme) as lexemes, string_agg(quote_literal(lexeme), ' | ')::tsquery as query
      from unnest(to_tsvector('english'::regconfig, ${terms}))
    ),
    hits as (
      select d.kind, d.ref_id, d.title, d.href, d.snippet, d.document
      from search_documents d, q
      where d.visible and d.document @@ q.query
      union all
      select 'faq', b.id, b.question, b.href, b.snippet, search_vector(b.question, b.snippet, '')
      from jsonb_to_recordset(${JSON.stringify(builtInFaqs)}::jsonb) as b(id text, question text, href text, snippet text), q
      where not exists (select 1 from faqs) and search_vector(b.question, b.snippet, '') @@ q.query
    ),
    ranked as (
      select hits.*, ts_rank(hits.document, q.query, 1) as rank
      from hits, q
      order by rank desc
      limit ${CANDIDATES}
    )
    select r.kind, r.ref_id, r.title, r.href, r.snippet, r.rank,
      (select count(*) from unnest(q.lexemes) as l(lexeme) where r.document @@ quote_literal(l.lexeme)::tsquery) as matched,
      (select count(*) from unnest(q.lexemes) as l(lexeme) where r.document @@ (quote_literal(l.lexeme) || ':A')::tsquery) as title_matched,
      cardinality(q.lexemes) as total
    from ranked r, q
    order by matched desc, title_matched desc, r.rank desc, (r.kind = 'faq') desc, r.title
  `);
  const rows = (result as unknown as { rows: Row[] }).rows;
  return rows.map((r) => ({
    kind: r.kind,
    refId: r.ref_id,
    title: r.title,
    href: r.href,
    snippet: r.snippet,
    rank: Number(r.rank),
    matched: Number(r.matched),
    titleMatched: Number(r.title_matched),
    total: Number(r.total),
  }));
}
