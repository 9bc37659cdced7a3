/**
 * The landing page's FAQ anchors: every FAQ item carries `id="faq-<FAQ id>"`, and `/#faq-<id>` opens it
 * (Faqs.astro). The chat's FAQ sources link there; the database builds the same href for stored FAQs
 * (search_document_of(faqs) in drizzle/0005), so ids are used as they are: FAQ ids are URL slugs.
 */
export const faqAnchorId = (faqId: string): string => `faq-${faqId}`;
export const faqAnchorHref = (faqId: string): string => `/#${faqAnchorId(faqId)}`;
