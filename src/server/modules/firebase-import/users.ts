/**
 * Member profiles (`users/{uid}`) and their page views (`users/{uid}/pageViews`) as rows for the
 * importer. The rules are the site's own (auth-schemas.ts for profile fields, page-time-schema.ts for page
 * views), reused, not copied, so an imported member is one the site could have created itself.
 */
import { createHash } from 'node:crypto';
import { coerceTimestamp, describeIssue } from '../../../shared/content-bundle';
import { emailField, personName, phoneField, sanitizeSitePath, websiteField } from '../../../shared/auth-schemas';
import { capDuration, CLOCK_SKEW_MS, MIN_DURATION_MS } from '../../../shared/page-time';
import { pageTimeRecordSchema } from '../../../shared/page-time-schema';
import { z } from '../../../shared/zod';
import type { UserRole } from '../../db/schema';
import type { FieldPath, JsonObject } from './firestore-values';

export interface ImportedUser {
  /** The Firebase uid, kept as the site's user id (page views and Auth accounts join on it). */
  id: string;
  email: string;
  /** '' when the profile has none (the column's default); the site asks for names at sign-up only. */
  firstName: string;
  lastName: string;
  role: UserRole;
  phone?: string;
  website?: string;
  signupSource?: string;
  /** Undefined when the profile has none: the CLI takes the Auth account's creation time. */
  createdAt?: Date;
}

/** A page_times row (src/server/db/schema.ts) without its createdAt, which the database sets. */
export interface ImportedPageTime {
  id: string;
  userId: string;
  pagePath: string;
  durationMs: number;
  at: Date;
  sessionId: string;
}

export interface RecordProblem {
  path: FieldPath;
  message: string;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problems: RecordProblem[] };

function issuesOf(error: z.ZodError): RecordProblem[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: [...(issue.path as FieldPath), key], message: 'unknown field' }))
      : [{ path: issue.path as FieldPath, message: issue.message }],
  );
}

const timestamp = z
  .custom<unknown>((v) => coerceTimestamp(v) !== undefined, { message: 'must be a timestamp' })
  .transform((v) => coerceTimestamp(v)!);

/** A name as the site's sign-up accepts it, or nothing ('' in the database) when the profile has none. */
const optionalName = (label: string) =>
  z
    .string()
    .nullish()
    .transform((v, ctx) => {
      const name = (v ?? '').trim();
      if (name === '') return '';
      const checked = personName(label).safeParse(name);
      if (checked.success) return checked.data;
      for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    });

/** The seed's profile fields (section 3), exactly: another field is reported rather than lost. */
const profileSchema = z.strictObject({
  uid: z.string().optional(),
  email: emailField,
  firstName: optionalName('First name'),
  lastName: optionalName('Last name'),
  // A profile without a role was made before roles existed: the seed's sign-up default.
  role: z.enum(['user', 'admin'], { error: 'must be "user" or "admin"' }).default('user'),
  phone: phoneField,
  website: websiteField,
  // The site keeps only a same-site path here and drops anything else (as its sign-up does).
  signupSource: z.unknown().transform(sanitizeSitePath).optional(),
  createdAt: timestamp.optional(),
});

export function mapUserProfile(uid: string, data: JsonObject): Parsed<ImportedUser> {
  const parsed = profileSchema.safeParse(data, { error: describeIssue });
  // Some apps store the uid in the profile too; it must agree with the document id (what Auth knows).
  const uidProblems = data.uid !== undefined && data.uid !== uid ? [{ path: ['uid'], message: `must be the document id "${uid}"` }] : [];
  if (!parsed.success || uidProblems.length > 0) return { ok: false, problems: [...uidProblems, ...(parsed.success ? [] : issuesOf(parsed.error))] };
  const { uid: _sameUid, phone, website, signupSource, createdAt, ...profile } = parsed.data;
  return {
    ok: true,
    value: {
      id: uid,
      ...profile,
      ...(phone === undefined ? {} : { phone }),
      ...(website === undefined ? {} : { website }),
      ...(signupSource === undefined ? {} : { signupSource }),
      ...(createdAt === undefined ? {} : { createdAt }),
    },
  };
}

/**
 * The live API's rules for pagePath, duration and sessionId (POST /api/page-views), taken from its schema.
 * Its timestamp rule ("at most two days old") is for records arriving now, not for history, so only "not
 * in the future" is kept; the timestamp may be a Firestore Timestamp or milliseconds since 1970.
 */
function buildPageViewSchema(now: number) {
  const live = pageTimeRecordSchema(now).shape;
  return z.strictObject({
    pagePath: live.pagePath,
    duration: live.duration,
    sessionId: live.sessionId,
    timestamp: z
      .union([z.number().int('timestamp must be a whole number of milliseconds'), timestamp.transform((d) => d.getTime())], {
        error: 'timestamp must be a Firestore timestamp or milliseconds since 1970',
      })
      .refine((ms) => ms <= now + CLOCK_SKEW_MS, 'timestamp must not be in the future'),
  });
}

let schemaFor: { now: number; schema: ReturnType<typeof buildPageViewSchema> } | undefined;
/** Built once per clock: a project has tens of thousands of page views and one import clock. */
function pageViewSchema(now: number) {
  if (schemaFor?.now !== now) schemaFor = { now, schema: buildPageViewSchema(now) };
  return schemaFor.schema;
}

/** The same row id on every run, so re-importing updates in place: a hash of the uid and document id. */
export function pageTimeId(uid: string, docId: string): string {
  return `fbpv-${createHash('sha256').update(`${uid}\u0000${docId}`).digest('hex').slice(0, 32)}`;
}

/**
 * A page view as a page_times row, or undefined when the live API would skip it too (capped to
 * MIN_DURATION_MS or less, which only a record from the last second can be).
 */
export function mapPageView(uid: string, docId: string, data: JsonObject, now: number): Parsed<ImportedPageTime | undefined> {
  const parsed = pageViewSchema(now).safeParse(data, { error: describeIssue });
  if (!parsed.success) return { ok: false, problems: issuesOf(parsed.error) };
  const { pagePath, duration, sessionId, timestamp: startedAt } = parsed.data;
  // The live API's cap: at most a day, and no longer than the time since the stretch began.
  const durationMs = capDuration(duration, startedAt, now);
  if (durationMs <= MIN_DURATION_MS) return { ok: true, value: undefined };
  return {
    ok: true,
    value: { id: pageTimeId(uid, docId), userId: uid, pagePath, durationMs, at: new Date(Math.min(startedAt, now)), sessionId },
  };
}
