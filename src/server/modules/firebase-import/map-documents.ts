/**
 * Firestore documents → this site's import: a content file (docs/content-format.md) checked by the content
 * import's own validation, member profiles and page-time rows. All or nothing: any problem anywhere means
 * no result but the full list of problems, each by Firestore collection, document id and field, so one dry
 * run shows everything to fix in Firebase.
 */
import { CONTENT_FORMAT, CONTENT_FORMAT_VERSION, type ContentBundleInput } from '../../../shared/content-bundle';
import { checkContentBundle, type ExistingContent } from '../content-transfer/validate';
import { convertDocumentData, type FieldPath, type JsonObject, type JsonValue } from './firestore-values';
import { fieldOf, pageViewsCollection, type FirestoreDoc, type FirestoreSource, type ImportProblem } from './source';
import { mapPageView, mapUserProfile, type ImportedPageTime, type ImportedUser } from './users';

export type FirebaseImport =
  | {
      ok: true;
      /** A content file (JSON-ready: dates as ISO strings) for importContentBundle, which checks it again in its transaction. */
      bundle: ContentBundleInput;
      users: ImportedUser[];
      pageTimes: ImportedPageTime[];
      problems: [];
    }
  | { ok: false; problems: ImportProblem[] };

export interface MapOptions {
  /** What the database already holds (readExistingRefs): packages may name stored services, slugs must stay unique. */
  existing?: ExistingContent;
  /** The clock page views are checked against ("not in the future"). */
  now?: number;
}

const NOTHING_STORED: ExistingContent = { serviceIds: new Set(), mediaIds: new Set(), articleSlugs: new Map() };

/** The content collections in the content file's order; each Firestore collection is the section of the same name. */
const CONTENT_SECTIONS = ['services', 'demos', 'packages', 'articles', 'faqs'] as const;
type ContentSection = (typeof CONTENT_SECTIONS)[number];

/** A problem with where it sorts: collections in the order above, then documents in source order. */
interface Ranked extends ImportProblem {
  rank: number;
  position: number;
}

/** A document's data as a record of its section: converted, the document id as the record id. */
function recordOf(doc: FirestoreDoc, report: (path: FieldPath, message: string) => void): JsonObject {
  const { value, problems } = convertDocumentData(doc.data);
  for (const p of problems) report(p.path, p.message);
  // Some apps also store the id inside the document; it must agree, and the document id is what links use.
  const { id: storedId, ...fields } = value;
  if (storedId !== undefined && storedId !== doc.id) report(['id'], `must be the document id "${doc.id}" (or absent)`);
  return { id: doc.id, ...fields };
}

/**
 * A package's included services as ids. The seed stores ids; a project that stored references
 * (`services/{id}`) gets their ids, in the same order (the order the site shows them).
 */
function includedServiceIds(value: JsonValue | undefined): JsonValue | undefined {
  if (!Array.isArray(value)) return value;
  return value.map((item) => (typeof item === 'string' && /^services\/[^/]+$/.test(item) ? item.slice('services/'.length) : item));
}

/** `is also used by articles[0]` → `is also used by articles/{id}`: positions mean nothing in Firestore. */
function withDocumentNames(message: string, docs: Record<string, FirestoreDoc[]>): string {
  return message.replace(/\b(services|demos|packages|articles|faqs)\[(\d+)\]/g, (whole, section: string, index: string) => {
    const doc = docs[section]?.[Number(index)];
    return doc ? `${section}/${doc.id}` : whole;
  });
}

async function mapContent(source: FirestoreSource, existing: ExistingContent): Promise<{ bundle: ContentBundleInput; problems: Ranked[] }> {
  const problems: Ranked[] = [];
  const reporter = (collection: string, id: string, rank: number, position: number) => (path: FieldPath, message: string) =>
    problems.push({ collection, id, field: fieldOf(path), message, rank, position });

  const bundle: Record<string, unknown> = { format: CONTENT_FORMAT, version: CONTENT_FORMAT_VERSION };
  CONTENT_SECTIONS.forEach((section, rank) => {
    bundle[section] = source[section].map((doc, position) => {
      const record = recordOf(doc, reporter(section, doc.id, rank, position));
      if (section === 'packages' && 'includedServiceIds' in record) record.includedServiceIds = includedServiceIds(record.includedServiceIds) ?? null;
      return record;
    });
  });
  const config = source.config;
  const configRank = CONTENT_SECTIONS.length;
  if (config) {
    const { value, problems: valueProblems } = convertDocumentData(config.data);
    valueProblems.forEach((p) => reporter('config', config.id, configRank, 0)(p.path, p.message));
    bundle.landingPageConfig = value;
  }

  const checked = await checkContentBundle(bundle, existing);
  if (!checked.ok) {
    for (const { path, message } of checked.problems) {
      const [section, index, ...field] = path;
      const text = withDocumentNames(message, source as unknown as Record<string, FirestoreDoc[]>);
      const rank = CONTENT_SECTIONS.indexOf(section as ContentSection);
      const doc = rank === -1 || typeof index !== 'number' ? undefined : source[section as ContentSection][index];
      if (doc) problems.push({ collection: String(section), id: doc.id, field: fieldOf(field), message: text, rank, position: index as number });
      else if (section === 'landingPageConfig' && config) {
        problems.push({ collection: 'config', id: config.id, field: fieldOf(path.slice(1)), message: text, rank: configRank, position: 0 });
      } else {
        // Only a whole section can fail without a record (more than the format's 5,000 records).
        problems.push({ collection: String(section ?? ''), id: '', field: fieldOf(path.slice(1)), message: text, rank: rank === -1 ? configRank : rank, position: -1 });
      }
    }
  }
  return { bundle: bundle as ContentBundleInput, problems };
}

function mapMembers(source: FirestoreSource, now: number): { users: ImportedUser[]; pageTimes: ImportedPageTime[]; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const users: ImportedUser[] = [];
  const emailOwner = new Map<string, string>();
  for (const doc of source.users) {
    const report = (path: FieldPath, message: string) => problems.push({ collection: 'users', id: doc.id, field: fieldOf(path), message });
    const { value, problems: valueProblems } = convertDocumentData(doc.data);
    valueProblems.forEach((p) => report(p.path, p.message));
    const mapped = mapUserProfile(doc.id, value);
    if (!mapped.ok) {
      mapped.problems.forEach((p) => report(p.path, p.message));
      continue;
    }
    // The site signs in by email, one account per address (users_email_idx).
    const owner = emailOwner.get(mapped.value.email);
    if (owner !== undefined) report(['email'], `"${mapped.value.email}" is also the email of users/${owner}`);
    else emailOwner.set(mapped.value.email, doc.id);
    if (valueProblems.length === 0) users.push(mapped.value);
  }

  const known = new Set(source.users.map((d) => d.id));
  const pageTimes: ImportedPageTime[] = [];
  for (const [uid, docs] of Object.entries(source.pageViews)) {
    const collection = pageViewsCollection(uid);
    if (!known.has(uid)) {
      if (docs.length > 0) problems.push({ collection, id: '', field: '', message: `there is no users/${uid} document for ${docs.length === 1 ? 'this page view' : `these ${docs.length} page views`}` });
      continue;
    }
    for (const doc of docs) {
      const report = (path: FieldPath, message: string) => problems.push({ collection, id: doc.id, field: fieldOf(path), message });
      const { value, problems: valueProblems } = convertDocumentData(doc.data);
      valueProblems.forEach((p) => report(p.path, p.message));
      const mapped = mapPageView(uid, doc.id, value, now);
      if (!mapped.ok) mapped.problems.forEach((p) => report(p.path, p.message));
      else if (mapped.value) pageTimes.push(mapped.value);
    }
  }
  return { users, pageTimes, problems };
}

/**
 * The whole Firebase project as this site's import. `existing` comes from the database the import will
 * write to (the content import checks it again inside its transaction).
 */
export async function firestoreToBundle(source: FirestoreSource, options: MapOptions = {}): Promise<FirebaseImport> {
  const content = await mapContent(source, options.existing ?? NOTHING_STORED);
  const members = mapMembers(source, options.now ?? Date.now());
  const contentProblems = content.problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.rank - b.p.rank || a.p.position - b.p.position || a.i - b.i)
    .map(({ p: { collection, id, field, message } }) => ({ collection, id, field, message }));
  const problems = [...contentProblems, ...members.problems];
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, bundle: content.bundle, users: members.users, pageTimes: members.pageTimes, problems: [] };
}
