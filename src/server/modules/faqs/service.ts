/**
 * The empty FAQ list's "Restore the ten defaults": the built-in answers the site shows while no FAQ is
 * stored become records the admin can edit, reorder and delete. Only into an empty list, so nothing an
 * admin wrote is ever doubled or replaced.
 */
import { DEFAULT_FAQS } from '../../../shared/default-faqs';
import { createAllWhenEmpty } from '../content/service';

export function restoreDefaultFaqs(actorId: string | undefined) {
  return createAllWhenEmpty(
    actorId,
    'faq',
    DEFAULT_FAQS.map(({ question, answer }) => ({ question, answer })),
    {
      summary: (question) => `Restored default FAQ “${question}”`,
      refusal: (count) =>
        `There ${count === 1 ? 'is already 1 FAQ' : `are already ${count} FAQs`}: the ten defaults are only restored into an empty list, so nothing was added.`,
    },
  );
}
