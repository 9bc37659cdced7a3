/**
 * Checking a content file before anything is written: the format's schema for every record, then the
 * rules that need the whole file or the database (unique ids and slugs, package → service references,
 * /media/ references, image bytes matching their hash). Every problem is reported, each with the record's
 * position and field (`services[2].name: must not be empty`), so one run shows everything to fix.
 */
import {
  BUNDLE_SECTIONS,
  CONTENT_FORMAT,
  CONTENT_FORMAT_VERSION,
  contentBundleSchema,
  describeIssue,
  formatPath,
  mediaIdFromUrl,
  MEDIA_ID_PATTERN,
  type ContentBundle,
} from '../../../shared/content-bundle';
import type { z } from '../../../shared/zod';
import { verifyStoredImage } from '../../media/process';

export interface Problem {
  path: string;
  message: string;
}

/** What the database already holds that a file may refer to. */
export interface ExistingContent {
  serviceIds: ReadonlySet<string>;
  mediaIds: ReadonlySet<string>;
  /** slug → id of the stored articles. */
  articleSlugs: ReadonlyMap<string, string>;
}

export type Validation = { ok: true; bundle: ContentBundle } | { ok: false; problems: Problem[] };

type Path = (string | number)[];
interface RawProblem {
  path: Path;
  message: string;
}

type RawRecord = Record<string, unknown>;
const isObject = (v: unknown): v is RawRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The records of a section as found in the file (whatever their shape), with their positions. */
function rawRecords(input: RawRecord, section: string): { record: RawRecord; index: number }[] {
  const list = input[section];
  if (!Array.isArray(list)) return [];
  return list.flatMap((record, index) => (isObject(record) ? [{ record, index }] : []));
}

function envelopeProblem(input: unknown): RawProblem | undefined {
  if (!isObject(input)) return { path: [], message: `must be a JSON object with "format": "${CONTENT_FORMAT}"` };
  if (input.format !== CONTENT_FORMAT) {
    return { path: ['format'], message: `must be "${CONTENT_FORMAT}" (this does not look like a content file)` };
  }
  if (input.version !== CONTENT_FORMAT_VERSION) {
    return {
      path: ['version'],
      message: `this importer reads version ${CONTENT_FORMAT_VERSION}; the file says ${JSON.stringify(input.version ?? null)}`,
    };
  }
  return undefined;
}

/** A schema's issues as problems, their paths under `prefix` (`['media', 3]` for one record). */
export function issueProblems(issues: readonly z.core.$ZodIssue[], prefix: Path = []): RawProblem[] {
  return issues.flatMap((issue): RawProblem[] => {
    const path = [...prefix, ...(issue.path as Path)];
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key], message: 'unknown field' }));
    return [{ path, message: issue.message }];
  });
}

function schemaProblems(input: unknown): { problems: RawProblem[]; bundle?: ContentBundle } {
  const parsed = contentBundleSchema.safeParse(input, { error: describeIssue });
  if (parsed.success) return { problems: [], bundle: parsed.data };
  return { problems: issueProblems(parsed.error.issues) };
}

/** A value used twice in a section: reported on each later record, naming the first. */
function duplicateProblems(input: RawRecord, section: string, field: string, what: string): RawProblem[] {
  const firstSeen = new Map<string, number>();
  const problems: RawProblem[] = [];
  for (const { record, index } of rawRecords(input, section)) {
    const value = record[field];
    if (typeof value !== 'string') continue;
    const first = firstSeen.get(value);
    if (first === undefined) firstSeen.set(value, index);
    else problems.push({ path: [section, index, field], message: `${what} "${value}" is also used by ${section}[${first}]` });
  }
  return problems;
}

function stringsOf(input: RawRecord, section: string, field: string): Set<string> {
  return new Set(
    rawRecords(input, section)
      .map(({ record }) => record[field])
      .filter((v): v is string => typeof v === 'string'),
  );
}

function includedServiceProblems(input: RawRecord, existing: ExistingContent): RawProblem[] {
  const fileServices = stringsOf(input, 'services', 'id');
  const problems: RawProblem[] = [];
  for (const { record, index } of rawRecords(input, 'packages')) {
    const ids = record.includedServiceIds;
    if (!Array.isArray(ids)) continue;
    const seen = new Set<string>();
    ids.forEach((id, position) => {
      if (typeof id !== 'string') return;
      const path = ['packages', index, 'includedServiceIds', position];
      if (seen.has(id)) problems.push({ path, message: `service "${id}" is listed twice` });
      else if (!fileServices.has(id) && !existing.serviceIds.has(id)) {
        problems.push({ path, message: `no service "${id}" in this file or in the database` });
      }
      seen.add(id);
    });
  }
  return problems;
}

function slugProblems(input: RawRecord, existing: ExistingContent): RawProblem[] {
  const fileArticleIds = stringsOf(input, 'articles', 'id');
  return rawRecords(input, 'articles').flatMap(({ record, index }): RawProblem[] => {
    const { slug, id } = record;
    if (typeof slug !== 'string') return [];
    const owner = existing.articleSlugs.get(slug);
    // The owner may be in this file too, with a new slug: then the file's slugs (unique) are what counts.
    if (owner === undefined || owner === id || fileArticleIds.has(owner)) return [];
    return [{ path: ['articles', index, 'slug'], message: `"${slug}" is already the slug of article "${owner}" in the database` }];
  });
}

const IMAGE_FIELDS: Record<string, string[]> = {
  services: ['picture'],
  demos: ['profilePicture'],
  packages: ['picture'],
  articles: ['featuredImage', 'authorImage'],
  seo: ['image'],
};

function mediaReferenceProblems(input: RawRecord, existing: ExistingContent): RawProblem[] {
  const fileMedia = stringsOf(input, 'media', 'id');
  const problems: RawProblem[] = [];
  for (const [section, fields] of Object.entries(IMAGE_FIELDS)) {
    for (const { record, index } of rawRecords(input, section)) {
      for (const field of fields) {
        const url = record[field];
        const id = typeof url === 'string' ? mediaIdFromUrl(url) : undefined;
        if (id && !fileMedia.has(id) && !existing.mediaIds.has(id)) {
          problems.push({ path: [section, index, field], message: `${url} is neither in this file's media nor in the database` });
        }
      }
    }
  }
  return problems;
}

/** Decodes each media entry that passed the schema and checks its bytes against its id and size. */
async function mediaBytesProblems(input: RawRecord, schemaFailures: RawProblem[]): Promise<RawProblem[]> {
  const failed = new Set(schemaFailures.filter((p) => p.path[0] === 'media').map((p) => p.path[1]));
  const checks = rawRecords(input, 'media')
    .filter(({ record, index }) => !failed.has(index) && typeof record.id === 'string' && MEDIA_ID_PATTERN.test(record.id))
    .map(async ({ record, index }): Promise<RawProblem[]> => {
      const problem = await verifyStoredImage(Buffer.from(String(record.data), 'base64'), {
        id: String(record.id),
        width: Number(record.width),
        height: Number(record.height),
      });
      return problem ? [{ path: ['media', index], message: problem }] : [];
    });
  return (await Promise.all(checks)).flat();
}

/** Problems in file order: by section, then by record position. */
function sortProblems(problems: RawProblem[]): Problem[] {
  const rank = (p: RawProblem) => {
    const section = BUNDLE_SECTIONS.indexOf(p.path[0] as (typeof BUNDLE_SECTIONS)[number]);
    return [section === -1 ? BUNDLE_SECTIONS.length : section, typeof p.path[1] === 'number' ? p.path[1] : -1];
  };
  return problems
    .map((p, i) => ({ p, i, r: rank(p) }))
    .sort((a, b) => a.r[0]! - b.r[0]! || a.r[1]! - b.r[1]! || a.i - b.i)
    .map(({ p }) => ({ path: formatPath(p.path), message: p.message }));
}

/** A problem with its path as a list (`['services', 2, 'name']`), for callers that map positions back. */
export type PathProblem = RawProblem;

/**
 * The media records' own checks, made while a streamed file was read (read-file.ts): the file's `media`
 * then holds only `{ id }` per record, for the checks across the file.
 */
export interface CheckedMedia {
  problems: readonly PathProblem[];
}

export async function validateContentBundle(input: unknown, existing: ExistingContent, checkedMedia?: CheckedMedia): Promise<Validation> {
  const checked = await checkContentBundle(input, existing, checkedMedia);
  return checked.ok ? checked : { ok: false, problems: sortProblems(checked.problems) };
}

/**
 * The same checks with unformatted paths, unsorted: the Firebase importer turns `articles[3]` back into
 * the Firestore document it came from.
 */
export async function checkContentBundle(
  input: unknown,
  existing: ExistingContent,
  checkedMedia?: CheckedMedia,
): Promise<{ ok: true; bundle: ContentBundle } | { ok: false; problems: PathProblem[] }> {
  const envelope = envelopeProblem(input);
  if (envelope) return { ok: false, problems: [envelope] };
  const file = input as RawRecord;
  // Records already checked one by one leave the schema; a `media` that is not a list still meets it.
  const mediaChecked = checkedMedia !== undefined && Array.isArray(file.media);

  const { problems: schema, bundle } = schemaProblems(mediaChecked ? { ...file, media: undefined } : file);
  const problems = [
    ...schema,
    ...(['services', 'demos', 'packages', 'articles', 'faqs', 'media'] as const).flatMap((s) => duplicateProblems(file, s, 'id', 'id')),
    ...duplicateProblems(file, 'articles', 'slug', 'slug'),
    ...duplicateProblems(file, 'seo', 'path', 'path'),
    ...includedServiceProblems(file, existing),
    ...slugProblems(file, existing),
    ...mediaReferenceProblems(file, existing),
    ...(mediaChecked ? checkedMedia.problems : await mediaBytesProblems(file, schema)),
  ];
  if (problems.length > 0 || !bundle) return { ok: false, problems };
  return { ok: true, bundle };
}
