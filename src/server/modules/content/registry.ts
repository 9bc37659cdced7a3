/** Every content type the admin edits, by type and by admin page. */
import { demosCollection } from './collections/demos';
import { packagesCollection } from './collections/packages';
import { articlesCollection } from './collections/articles';
import { faqsCollection } from './collections/faqs';
import { servicesCollection } from './collections/services';
import { ContentError } from './errors';
import type { Collection, ContentType } from './types';

const COLLECTIONS: Partial<Record<ContentType, Collection>> = {
  service: servicesCollection as unknown as Collection,
  demo: demosCollection as unknown as Collection,
  package: packagesCollection as unknown as Collection,
  article: articlesCollection as unknown as Collection,
  faq: faqsCollection as unknown as Collection,
};

export function collectionOf(type: ContentType): Collection {
  const collection = COLLECTIONS[type];
  if (!collection) throw new ContentError('UNKNOWN_TYPE', `Unknown content type: ${type}`);
  return collection;
}

export function allCollections(): Collection[] {
  return Object.values(COLLECTIONS);
}
