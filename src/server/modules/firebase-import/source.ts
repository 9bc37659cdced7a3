/**
 * What the Firebase importer reads (filled by the CLI with firebase-admin) and how it reports problems:
 * by Firestore collection, document id and field, the way the site's owner finds the document to fix in
 * the Firebase console.
 */
import { formatPath } from '../../../shared/content-bundle';
import type { FieldPath } from './firestore-values';

/** One Firestore document: its id and what `snapshot.data()` returned (Timestamps and all). */
export interface FirestoreDoc {
  id: string;
  data: unknown;
}

export interface FirestoreSource {
  services: FirestoreDoc[];
  demos: FirestoreDoc[];
  packages: FirestoreDoc[];
  articles: FirestoreDoc[];
  faqs: FirestoreDoc[];
  /** The landing page config document of the app config collection (`blockOrder`), when there is one. */
  config: FirestoreDoc | undefined;
  users: FirestoreDoc[];
  /** Each user's `users/{uid}/pageViews` sub-collection, by uid. */
  pageViews: Record<string, FirestoreDoc[]>;
}

export interface ImportProblem {
  /** `services`, `config`, `users`, `users/{uid}/pageViews`, … */
  collection: string;
  /** The document id ('' for a problem of the whole collection). */
  id: string;
  /** `benefits[2]`, `features[0].title`, `meta["a/b"]`; '' for the whole document. */
  field: string;
  message: string;
}

export const fieldOf = (path: FieldPath): string => (path.length === 0 ? '' : formatPath(path));

export const pageViewsCollection = (uid: string) => `users/${uid}/pageViews`;

/** "services/abc.benefits[2]: must not be empty": one line of the CLI's report. */
export function formatImportProblem(p: ImportProblem): string {
  const where = [p.collection, p.id].filter(Boolean).join('/');
  return `${where}${p.field ? `.${p.field}` : ''}: ${p.message}`;
}
