/**
 * What the admin content engine (service.ts) needs to know about a content type. Each type supplies one
 * Collection (collections/*.ts): its table access, the editable fields' schema (src/shared/schemas), the
 * cache tags its public pages carry and where its records live on the public site. Everything else —
 * authorization, validation, ids, order, concurrency, redirects, the activity log — is the engine's, once.
 */
import type { z } from '../../../shared/zod';
import type { CacheTag } from '../../cache/tags';
import type { Database } from '../../db/client';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export const CONTENT_TYPES = ['service', 'demo', 'package', 'article', 'faq'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** A record as the editor and the activity log see it: its editable fields plus what the server owns. */
export interface Snapshot {
  id: string;
  /** Position in the public lists (0 first); articles, listed by date, keep 0. */
  order: number;
  updatedAt: string;
  createdAt: string;
  [field: string]: unknown;
}

/** One row of an admin list. */
export interface ListRow {
  id: string;
  title: string;
  /** A second line: short text, slug, or an excerpt of the answer. */
  subtitle: string;
  /** e.g. { label: 'Draft', tone: 'neutral' } for an unpublished article. */
  badges: { label: string; tone: 'success' | 'neutral' | 'warning' }[];
  picture: string;
  order: number;
  updatedAt: string;
  publicPath: string | undefined;
}

export interface ListQuery {
  q: string;
  /** A filter the type offers (e.g. 'published' / 'draft'); '' for all. */
  filter: string;
  sort: string;
  dir: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export interface ListSpec {
  /** Sort keys the list offers, the first is the default; 'order' means the public order. */
  sorts: readonly { key: string; label: string }[];
  filters: readonly { key: string; label: string }[];
}

export interface Collection<Fields extends Record<string, unknown> = Record<string, unknown>> {
  type: ContentType;
  label: { one: string; many: string };
  /** The admin pages: /admin/{adminSlug}. */
  adminSlug: string;
  /** The editable fields (src/shared/schemas/catalog.ts). */
  fields: z.ZodObject;
  /** HTML fields, sanitized on save. */
  htmlFields: readonly (keyof Fields & string)[];
  /** Cache tags of the public pages that show this type. */
  tags: readonly CacheTag[];
  /** Which field names a record in the admin and the activity log ("Lead outreach"). */
  titleField: keyof Fields & string;
  /** The field whose value is in the public URL when it is not the id (articles: slug). */
  urlField?: keyof Fields & string;
  /** The record's public page, or undefined (FAQs have none). */
  publicPath(snapshot: Snapshot): string | undefined;
  /**
   * Rules that need the database (a package's included services must exist): messages by field path, empty
   * when all is well. The engine runs it on create and update; a revert restores what still can be.
   */
  checkReferences?(ex: Executor, fields: Fields): Promise<Record<string, string>>;
  /** Whether the public order is an admin choice (articles are listed by date). */
  ordered: boolean;
  list: ListSpec;

  read(ex: Executor, id: string): Promise<Snapshot | undefined>;
  /** Inserts a record with this id; `restore` also puts back the original timestamps. */
  insert(ex: Executor, id: string, fields: Fields, order: number, restore?: Pick<Snapshot, 'createdAt' | 'updatedAt'>): Promise<void>;
  update(ex: Executor, id: string, fields: Fields, newId?: string): Promise<void>;
  remove(ex: Executor, id: string): Promise<void>;
  /** Every id in public order. */
  ids(ex: Executor): Promise<string[]>;
  setOrder(ex: Executor, idsInOrder: readonly string[]): Promise<void>;
  /** Whether a value of the URL field (or the id) is taken by another record. */
  isTaken(ex: Executor, value: string, exceptId?: string): Promise<boolean>;
  listRows(ex: Executor, query: ListQuery): Promise<{ rows: ListRow[]; total: number }>;
}
