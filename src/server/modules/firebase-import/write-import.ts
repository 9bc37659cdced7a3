/**
 * Writes a checked Firebase import: content through the content import's own write path, then members and
 * page views in batches, each batch in its own transaction together with a checkpoint, so an interrupted
 * run resumes at the first batch not written. Every write is an upsert on the record's id, so a second run
 * updates in place and never duplicates.
 *
 * What a re-run never undoes on this site: a password set or upgraded here (only a missing or still
 * Firebase-hashed password is written), a verified email, a disabled account.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, like, or, sql, type AnyColumn } from 'drizzle-orm';
import { FIREBASE_HASH_PREFIX, type FirebaseHashConfig } from '../../auth/firebase-password';
import type { Database } from '../../db/client';
import { accounts, appConfig, pageTimes, sessions, users } from '../../db/schema';
import type { ContentBundleInput } from '../../../shared/content-bundle';
import { importContentBundleIn, type ImportSummary } from '../content-transfer/import';
import { saveFirebaseHashConfig } from '../firebase-auth/hash-config';
import type { ImportedMember, ImportNote } from './members';
import type { ImportedPageTime } from './users';

export const CHECKPOINT_KEY = 'firebaseImport';
export const DISABLED_REASON = 'Disabled in Firebase';
const DEFAULT_BATCH = 500;

export interface ImportPlan {
  projectId: string;
  bundle: ContentBundleInput;
  /** The project's hash parameters; undefined keeps what an earlier run stored. */
  hashConfig?: FirebaseHashConfig | undefined;
  /** Members to write (those joined to an existing account are not among them). */
  members: ImportedMember[];
  pageTimes: ImportedPageTime[];
}

export interface WriteProgress {
  done: number;
  total: number;
}

export interface WriteResult {
  content: ImportSummary;
  members: number;
  pageTimes: number;
  /** Batches an interrupted earlier run had already written (0 for a fresh run). */
  resumedBatches: number;
  batches: number;
}

interface Checkpoint {
  digest: string;
  batchesDone: number;
  batches: number;
}

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const excluded = (column: AnyColumn) => sql`excluded.${sql.identifier(column.name)}`;

/**
 * Same records, same digest: what tells a resumable checkpoint from one of another import. The hash config
 * is left out: a resumed run need not repeat --auth-hash-config (the first run stored it).
 */
function digestOf(plan: ImportPlan): string {
  const { hashConfig: _stored, ...records } = plan;
  return createHash('sha256').update(JSON.stringify(records)).digest('hex');
}

/**
 * Members whose email already belongs to another account on this site (its owner signed up here first):
 * that account is kept as it is, and the Firebase member's page views join it.
 */
export async function joinExistingAccounts(
  database: Database,
  members: ImportedMember[],
): Promise<{ members: ImportedMember[]; joined: Map<string, string>; notes: ImportNote[] }> {
  const joined = new Map<string, string>();
  const notes: ImportNote[] = [];
  for (const slice of chunks(members, DEFAULT_BATCH)) {
    const rows = await database.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, slice.map((m) => m.email)));
    const ownerOf = new Map(rows.map((r) => [r.email, r.id]));
    for (const m of slice) {
      const owner = ownerOf.get(m.email);
      if (owner !== undefined && owner !== m.id) {
        joined.set(m.id, owner);
        notes.push({ collection: 'users', id: m.id, field: 'email', message: `${m.email} already has an account on this site: kept as it is (its password and role), the page views join it` });
      }
    }
  }
  return { members: members.filter((m) => !joined.has(m.id)), joined, notes };
}

async function writeMembers(tx: Database, batch: ImportedMember[], now: Date) {
  await tx
    .insert(users)
    .values(
      batch.map((m) => ({
        id: m.id,
        name: `${m.firstName} ${m.lastName}`.trim(),
        email: m.email,
        emailVerified: m.emailVerified,
        firstName: m.firstName,
        lastName: m.lastName,
        role: m.role,
        phone: m.phone ?? null,
        website: m.website ?? null,
        signupSource: m.signupSource ?? null,
        banned: m.disabled,
        banReason: m.disabled ? DISABLED_REASON : null,
        createdAt: m.createdAt,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: users.id,
      set: {
        name: excluded(users.name),
        email: excluded(users.email),
        firstName: excluded(users.firstName),
        lastName: excluded(users.lastName),
        role: excluded(users.role),
        phone: excluded(users.phone),
        website: excluded(users.website),
        signupSource: excluded(users.signupSource),
        createdAt: excluded(users.createdAt),
        emailVerified: sql`${users.emailVerified} or ${excluded(users.emailVerified)}`,
        banned: sql`${users.banned} or ${excluded(users.banned)}`,
        banReason: sql`coalesce(${users.banReason}, ${excluded(users.banReason)})`,
        updatedAt: now,
      },
    });

  const disabled = batch.filter((m) => m.disabled).map((m) => m.id);
  if (disabled.length > 0) await tx.delete(sessions).where(inArray(sessions.userId, disabled));

  const withPassword = batch.filter((m) => m.password !== undefined);
  if (withPassword.length === 0) return;
  const credentialOf = new Set(
    (
      await tx
        .select({ userId: accounts.userId })
        .from(accounts)
        .where(and(inArray(accounts.userId, withPassword.map((m) => m.id)), eq(accounts.providerId, 'credential')))
    ).map((r) => r.userId),
  );
  const missing = withPassword.filter((m) => !credentialOf.has(m.id));
  if (missing.length > 0) {
    // As better-auth's own credential accounts: accountId is the user id.
    await tx.insert(accounts).values(
      missing.map((m) => ({ id: randomBytes(16).toString('hex'), accountId: m.id, providerId: 'credential', userId: m.id, password: m.password!, createdAt: now, updatedAt: now })),
    );
  }
  const existing = withPassword.filter((m) => credentialOf.has(m.id));
  if (existing.length === 0) return;
  // One statement for the batch; the row keeps a password set or upgraded here (not a Firebase hash).
  await tx
    .update(accounts)
    .set({ password: sql`case ${accounts.userId} ${sql.join(existing.map((m) => sql`when ${m.id} then ${m.password!}`), sql` `)} end`, updatedAt: now })
    .where(
      and(
        inArray(accounts.userId, existing.map((m) => m.id)),
        eq(accounts.providerId, 'credential'),
        or(isNull(accounts.password), like(accounts.password, `${FIREBASE_HASH_PREFIX}%`)),
      ),
    );
}

async function writePageTimes(tx: Database, batch: ImportedPageTime[]) {
  await tx
    .insert(pageTimes)
    .values(batch)
    .onConflictDoUpdate({
      target: pageTimes.id,
      set: {
        userId: excluded(pageTimes.userId),
        pagePath: excluded(pageTimes.pagePath),
        durationMs: excluded(pageTimes.durationMs),
        at: excluded(pageTimes.at),
        sessionId: excluded(pageTimes.sessionId),
      },
    });
}

async function readCheckpoint(database: Database): Promise<Checkpoint | undefined> {
  const [row] = await database.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, CHECKPOINT_KEY));
  return row?.value as Checkpoint | undefined;
}

const saveCheckpoint = (tx: Database, value: Checkpoint) =>
  tx
    .insert(appConfig)
    .values({ key: CHECKPOINT_KEY, value })
    .onConflictDoUpdate({ target: appConfig.key, set: { value, updatedAt: new Date() } });

export class ImportWriteError extends Error {}

export async function writeFirebaseImport(
  database: Database,
  plan: ImportPlan,
  options: { batchSize?: number; now?: Date; onProgress?: (p: WriteProgress) => void } = {},
): Promise<WriteResult> {
  const size = options.batchSize ?? DEFAULT_BATCH;
  const now = options.now ?? new Date();
  const digest = digestOf(plan);
  type Step = { records: number; write: (tx: Database) => Promise<unknown> };
  let content: ImportSummary | undefined;
  const steps: Step[] = [
    {
      records: 1,
      write: async (tx) => {
        if (plan.hashConfig) await saveFirebaseHashConfig(plan.hashConfig, tx);
        const result = await importContentBundleIn(tx, plan.bundle, now);
        // Checked before writing; only a change made meanwhile (a service deleted in the admin) lands here.
        if (!result.ok) throw new ImportWriteError(`The content changed on this site during the import: ${result.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
        content = result.summary;
      },
    },
    ...chunks(plan.members, size).map((batch): Step => ({ records: batch.length, write: (tx) => writeMembers(tx, batch, now) })),
    ...chunks(plan.pageTimes, size * 2).map((batch): Step => ({ records: batch.length, write: (tx) => writePageTimes(tx, batch) })),
  ];

  const previous = await readCheckpoint(database);
  const resumeAt = previous?.digest === digest && previous.batchesDone < previous.batches && previous.batches === steps.length ? previous.batchesDone : 0;
  const total = steps.reduce((n, s) => n + s.records, 0);
  let done = steps.slice(0, resumeAt).reduce((n, s) => n + s.records, 0);
  options.onProgress?.({ done, total });

  // The content step is cheap and its summary is the report's: it runs on a resumed run too.
  const order = [0, ...[...steps.keys()].slice(Math.max(1, resumeAt))];
  for (const i of order) {
    const step = steps[i]!;
    await database.transaction(async (tx) => {
      await step.write(tx);
      await saveCheckpoint(tx, { digest, batchesDone: Math.max(i + 1, resumeAt), batches: steps.length });
    });
    if (i > 0 || resumeAt === 0) done += step.records;
    options.onProgress?.({ done, total });
    // The embedded database answers without leaving the microtask queue: let timers (the progress bar)
    // and signals (Ctrl-C) run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { content: content!, members: plan.members.length, pageTimes: plan.pageTimes.length, resumedBatches: resumeAt, batches: steps.length };
}
