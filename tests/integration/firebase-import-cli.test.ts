/**
 * `npm run import:firebase` end to end against offline emulators (firebase-tools' Auth emulator and an
 * in-process Firestore), on a fresh embedded data folder, or a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set: a realistic project (the demo content, 100 members with page views, Auth
 * accounts with Firebase scrypt hashes) dry-run, applied, re-applied; a project with bad documents
 * refused whole; bad command lines answered in one line; the key never printed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { acquireDataDirLock } from '../../src/server/db/lock';
import { accounts, articles, pageTimes, services, users } from '../../src/server/db/schema';
import { DISABLED_REASON } from '../../src/server/modules/firebase-import/write-import';
import { onPostgres } from '../support/db';
import { startFirebaseEmulators, writeServiceAccountKey, type FirebaseEmulators } from '../support/firebase-emulators';
import { seedFirebaseProject, type SeededProject } from '../support/firebase-project';
import { createPostgresDatabase, type ThrowawayDatabase } from '../support/postgres-database';
import { runNode, type ProcessResult } from '../support/run-process';

const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'firebase-cli-'));
const dataDir = path.join(temp, 'data');

let emu: FirebaseEmulators;
let good: SeededProject;
let bad: SeededProject;
let goodKey: string;
let badKey: string;
let hashFile: string;
let database: ThrowawayDatabase | undefined;
let databaseUrl: string | undefined;
const printedSoFar: string[] = [];

async function runImport(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ProcessResult> {
  const result = await runNode(['--import', 'tsx', path.join(root, 'scripts', 'import-firebase.ts'), '--', ...args], {
    cwd: root,
    env: {
      ...process.env,
      ...emu?.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      AUTH_SECRET: 'firebase-import-cli-test-secret-0123456789',
      SEED_DEMO_CONTENT: 'false',
      LOG_LEVEL: 'silent',
      ...env,
    },
  });
  printedSoFar.push(result.stdout, result.stderr);
  return result;
}

/** stderr without the progress bar's lines (drawn when a step takes over a second, as on a busy machine). */
const problemsOf = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^(Page views|Importing) +[█░]/.test(line))
    .join('\n');

/** The database the command wrote, opened after it exited (the embedded one takes the folder's lock). */
async function withDatabase<T>(read: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = await openDatabase(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', dataDir });
  try {
    return await read(handle);
  } finally {
    await handle.close();
  }
}

const tally = (handle: DatabaseHandle) =>
  Promise.all([users, pageTimes, services, articles].map(async (t) => (await handle.db.select({ n: count() }).from(t))[0]!.n));

beforeAll(async () => {
  if (onPostgres) {
    database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, 'fbcli');
    databaseUrl = database.url;
  }
  emu = await startFirebaseEmulators();
  good = await seedFirebaseProject(emu);
  // A second project in the same emulators, with documents the importer must refuse.
  bad = await seedFirebaseProject({ ...emu, projectId: `${emu.projectId}-bad` }, { users: 10, bad: true });
  goodKey = writeServiceAccountKey(temp, good.projectId);
  badKey = writeServiceAccountKey(temp, bad.projectId);
  hashFile = path.join(temp, 'hash.json');
  fs.writeFileSync(hashFile, JSON.stringify(good.hashConfigJson));
}, 180_000);

afterAll(async () => {
  await emu?.stop();
  await database?.drop();
  // Whatever happened, no output may carry the service-account key.
  const keyBody = JSON.parse(fs.readFileSync(goodKey, 'utf8')).private_key.split('\n')[1];
  for (const text of printedSoFar) expect(text).not.toContain(keyBody);
  fs.rmSync(temp, { recursive: true, force: true });
});

describe('npm run import:firebase', { timeout: 180_000 }, () => {
  it('a dry run reads the whole project, reports counts and notes, and writes nothing', async () => {
    const run = await runImport(['--service-account', goodKey, '--auth-hash-config', hashFile]);
    expect(problemsOf(run.stderr)).toBe('');
    expect(run.code).toBe(0);
    const { counts, special } = good;
    expect(run.stdout).toContain(`${counts.services} services, ${counts.demos} demos, ${counts.packages} packages, ${counts.articles} articles, ${counts.faqs} FAQs, ${counts.users} member profiles, ${counts.pageViews} page views, ${counts.auth} Auth accounts; landing page config: config/landingPage.`);
    // Every Auth account with an email becomes a member; the Google one has no password; one is disabled.
    expect(run.stdout).toContain(`members: ${counts.auth} (1 admin, ${counts.auth - 1} with their Firebase password, 1 disabled)`);
    expect(run.stdout).toMatch(new RegExp(`auth/${special.authOnlyUid}: no users document: imported as a member without a name`));
    expect(run.stdout).toMatch(new RegExp(`users/${special.emailMismatchUid}\\.email: the profile says .*, Firebase Auth renamed-`));
    expect(run.stdout).toMatch(new RegExp(`auth/${special.googleOnlyUid}: signs in with google\\.com only`));
    expect(run.stdout).toContain('Dry run: nothing was written. Run the same command with --apply to import.');
    expect(await withDatabase(tally)).toEqual([0, 0, 0, 0]);
  });

  it('--apply imports every record; a second run updates in place', async () => {
    const first = await runImport(['--service-account', goodKey, '--auth-hash-config', hashFile, '--apply']);
    expect(problemsOf(first.stderr)).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Imported ${good.counts.auth} members,`);
    // Page views the live API would skip (capped to a second or less) are not rows; the seed writes none.
    const expected = [good.counts.auth, good.counts.pageViews, good.counts.services, good.counts.articles];
    expect(await withDatabase(tally)).toEqual(expected);

    await withDatabase(async ({ db }) => {
      const { special } = good;
      const [disabled] = await db.select().from(users).where(eq(users.id, special.disabledUid));
      expect(disabled).toMatchObject({ banned: true, banReason: DISABLED_REASON });
      const [renamed] = await db.select().from(users).where(eq(users.id, special.emailMismatchUid));
      expect(renamed!.email).toMatch(/^renamed-/);
      const credentials = await db.select({ userId: accounts.userId, password: accounts.password }).from(accounts).where(eq(accounts.providerId, 'credential'));
      expect(credentials).toHaveLength(good.counts.auth - 1);
      expect(credentials.every((c) => c.password!.startsWith('$firebase-scrypt$'))).toBe(true);
      expect(credentials.some((c) => c.userId === special.googleOnlyUid)).toBe(false);
      // Each member's hash is the one Firebase held for them (listUsers' URL-safe base64 made standard).
      const member = good.users.find((u) => u.hasPassword && u.uid.startsWith('gen'))!;
      const [row] = await db.select({ password: accounts.password }).from(accounts).where(and(eq(accounts.userId, member.uid), eq(accounts.providerId, 'credential')));
      expect(row!.password).toBe(`$firebase-scrypt$${member.passwordSalt}$${member.passwordHash}`);
      const [admin] = await db.select().from(users).where(eq(users.role, 'admin'));
      expect(admin!.email).toBe('owner@autoflow.agency');

      // Every member as Firebase had them, and every member's page views.
      const byId = new Map((await db.select().from(users)).map((u) => [u.id, u]));
      for (const seeded of good.users) {
        const row = byId.get(seeded.uid);
        expect(row, seeded.uid).toMatchObject({ email: seeded.authEmail, emailVerified: seeded.emailVerified, banned: seeded.disabled });
        expect(row!.firstName, seeded.uid).toBe(String(seeded.profile?.firstName ?? '').trim());
      }
      const perMember = await db.select({ userId: pageTimes.userId, n: count() }).from(pageTimes).groupBy(pageTimes.userId);
      expect(Object.fromEntries(perMember.map((r) => [r.userId, r.n]))).toEqual(
        Object.fromEntries(good.users.filter((u) => u.pageViews.length > 0).map((u) => [u.uid, u.pageViews.length])),
      );
    });

    const again = await runImport(['--service-account', goodKey, '--apply']);
    expect(again.code).toBe(0);
    expect(await withDatabase(tally)).toEqual(expected);
    expect(await withDatabase(async ({ db }) => (await db.select({ n: count() }).from(accounts))[0]!.n)).toBe(good.counts.auth - 1);
  });

  it('a project with bad documents is refused whole: every problem listed by collection, document and field', async () => {
    const before = await withDatabase(tally);
    for (const args of [['--service-account', badKey, '--auth-hash-config', hashFile], ['--service-account', badKey, '--auth-hash-config', hashFile, '--apply']]) {
      const run = await runImport(args);
      expect(run.code).toBe(1);
      for (const b of bad.bad) expect(run.stderr).toMatch(new RegExp(`^${b.collection}/${b.id}\\.${b.field.replace(/[[\]"/]/g, '\\$&')}: `, 'm'));
      expect(run.stderr).toMatch(/\.role: must be "user" or "admin"/);
      expect(run.stderr).toContain('Nothing was imported: 3 problems to fix in Firebase (or in the command).');
    }
    expect(await withDatabase(tally)).toEqual(before);
  });

  it.skipIf(onPostgres)('does nothing while a running server holds the embedded database', async () => {
    const lock = acquireDataDirLock(dataDir);
    try {
      const run = await runImport(['--service-account', goodKey, '--apply']);
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain('Reading Firebase');
      expect(run.stderr).toContain(`The data folder ${dataDir} is in use by another process (PID ${process.pid})`);
    } finally {
      lock.release();
    }
  });

  it('answers a wrong command line in one line, before reading anything', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /^--service-account is required/],
      [['--service-account', path.join(temp, 'missing.json')], /Cannot read the service-account key .*missing\.json: no such file/],
      [['--service-account', hashFile], /is not a service-account key .*: type is not "service_account"; client_email is missing; private_key is missing/],
      [['--service-account', writeServiceAccountKey(path.join(temp), 'demo-noproject', { project_id: undefined })], /names no project: pass --project <project-id>/],
      [['--service-account', goodKey, '--auth-hash-config', goodKey], /is not a Firebase password hash config .*base64_signer_key/],
      [['--service-account', goodKey, '--frobnicate'], /Unknown option '--frobnicate'/],
      [['--service-account', goodKey, '--config-document', 'nested/a/b'], /--config-document must be <collection>\/<document>/],
    ];
    for (const [args, message] of cases) {
      const run = await runImport(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr.split('\n')[0]).toMatch(message);
      expect(run.stdout).toBe('');
    }
    // A key file of the right shape whose key is not one (cut, edited, another kind): one line, nothing opened.
    const malformedKeys: Array<[string, string, RegExp]> = [
      ['no PEM', 'not a key', /private_key is not a PEM private key$/],
      ['cut PEM', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n', /private_key is not a usable private key/],
      ['EC key', crypto.generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey, /private_key is not a usable private key/],
    ];
    for (const [label, privateKey, message] of malformedKeys) {
      const file = writeServiceAccountKey(temp, 'demo-malformed', { private_key: privateKey });
      const run = await runImport(['--service-account', file], { DATA_DIR: path.join(temp, 'malformed-data') });
      expect(run.code, label).toBe(1);
      expect(run.stderr.trimEnd().split('\n'), label).toHaveLength(1);
      expect(run.stderr.startsWith(`${file} is not a service-account key (`), label).toBe(true);
      expect(run.stderr.trimEnd(), label).toMatch(message);
      expect(run.stdout, label).toBe('');
      expect(fs.existsSync(path.join(temp, 'malformed-data')), label).toBe(false);
    }

    const notJson = path.join(temp, 'not-json.json');
    fs.writeFileSync(notJson, '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n');
    const run = await runImport(['--service-account', notJson]);
    expect(run.stderr.trim()).toBe(`${notJson} is not a service-account key: it is not JSON`);
  });

  it('a named config document that does not exist is one clear line', async () => {
    const run = await runImport(['--service-account', goodKey, '--config-document', 'config/nothing-here']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe('--config-document config/nothing-here: there is no such document');
  });
});
