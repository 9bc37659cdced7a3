/** The chat's search over the site's own content: the question's meaningful words against search_documents. */
import { DEFAULT_FAQS } from '../../../shared/default-faqs';
import { faqAnchorHref } from '../../../shared/faq-anchor';
import { CHAT_LIMITS } from '../../../shared/chat';
import { htmlToText, searchTerms, type SearchHit } from '../../../shared/chat-answer';
import { searchDocumentsFor, type BuiltInFaqRow } from './repository';

/** The landing page's ten built-in FAQs, answered from while no FAQ is stored. */
const BUILT_IN_FAQS: readonly BuiltInFaqRow[] = DEFAULT_FAQS.map((f) => ({
  id: f.id,
  question: f.question,
  href: faqAnchorHref(f.id),
  snippet: htmlToText(f.answer),
}));

/** Best hits first (see searchDocumentsFor); none for a question with no searchable word. */
export async function searchSite(question: string): Promise<SearchHit[]> {
  const terms = searchTerms(question.slice(0, CHAT_LIMITS.message));
  if (!/[\p{L}\p{N}]/u.test(terms)) return [];
  return searchDocumentsFor(terms, BUILT_IN_FAQS);
}
