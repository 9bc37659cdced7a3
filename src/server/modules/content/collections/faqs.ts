/**
 * FAQs in the admin (seed section 3): question and HTML answer, in the order the landing page's accordion
 * shows them. They have no page of their own. With none stored the site shows the ten built-in ones
 * (src/shared/default-faqs.ts), which the admin can turn into records from the empty list.
 */
import { faqSchema } from '../../../../shared/schemas/catalog';
import { cutText, stripHtml } from '../../../../shared/text';
import type { z } from '../../../../shared/zod';
import { CACHE_TAGS } from '../../../cache/tags';
import { faqs } from '../../../db/schema';
import type { Collection, Snapshot } from '../types';
import { iso, tableOps } from './table-ops';

const fields = faqSchema;
type Fields = z.output<typeof fields>;

const ops = tableOps({
  table: faqs,
  id: faqs.id,
  order: faqs.order,
  createdAt: faqs.createdAt,
  search: [faqs.question, faqs.answer],
  sorts: { question: faqs.question, updated: faqs.updatedAt },
});

function toSnapshot(row: typeof faqs.$inferSelect): Snapshot {
  return {
    id: row.id,
    order: row.order,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    question: row.question,
    answer: row.answer,
  };
}

export const faqsCollection: Collection<Fields> = {
  type: 'faq',
  label: { one: 'FAQ', many: 'FAQs' },
  adminSlug: 'faqs',
  fields,
  htmlFields: ['answer'],
  // The landing page's FAQ accordion carries this tag (it carries every tag).
  tags: [CACHE_TAGS.faqs],
  titleField: 'question',
  publicPath: () => undefined,
  ordered: true,
  list: {
    sorts: [
      { key: 'order', label: 'Public order' },
      { key: 'question', label: 'Question' },
      { key: 'updated', label: 'Last changed' },
    ],
    filters: [],
  },

  ...ops.storage(toSnapshot),
  async listRows(ex, query) {
    const { rows, total } = await ops.page(ex, query, {
      id: faqs.id,
      question: faqs.question,
      answer: faqs.answer,
      order: faqs.order,
      updatedAt: faqs.updatedAt,
    });
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        title: r.question,
        subtitle: cutText(stripHtml(r.answer), 160),
        badges: [],
        picture: '',
        order: r.order,
        updatedAt: iso(r.updatedAt),
        publicPath: undefined,
      })),
    };
  },
};
