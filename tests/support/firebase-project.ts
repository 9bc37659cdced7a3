/**
 * Seeds the emulators with a realistic Firebase project of the seed app, written with firebase-admin as
 * the app wrote it: the demo content of goodSource() with real Timestamps and references, member profiles
 * with page views, and their Auth accounts with Firebase scrypt password hashes whose passwords are known.
 */
import crypto from 'node:crypto';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth, type Auth, type UserImportRecord } from 'firebase-admin/auth';
import { GeoPoint, getFirestore, Timestamp, type Firestore } from 'firebase-admin/firestore';
import { DEMO_ARTICLES } from '../../src/server/seed/demo-articles';
import { DEMO_PACKAGES } from '../../src/server/seed/demo-catalog';
import { formatPath } from '../../src/shared/content-bundle';
import type { FirestoreDoc } from '../../src/server/modules/firebase-import';
import type { FirebaseEmulators } from './firebase-emulators';
import { FakeDocumentReference, FakeGeoPoint, FakeTimestamp, goodSource } from './firestore-fixture';
import { VECTOR_ACCOUNT, VECTOR_HASH_CONFIG_JSON } from './firebase-vector';

/** The public test-vector project of github.com/firebase/scrypt (a real project's are in its console). */
const { hash_config: VECTOR_CONFIG } = VECTOR_HASH_CONFIG_JSON;
const HASH = {
  signerKey: Buffer.from(VECTOR_CONFIG.base64_signer_key, 'base64'),
  saltSeparator: Buffer.from(VECTOR_CONFIG.base64_salt_separator, 'base64'),
  rounds: VECTOR_CONFIG.rounds,
  memCost: VECTOR_CONFIG.mem_cost,
};

/**
 * Firebase's modified scrypt, written here independently of src/server/auth/firebase-password.ts: the
 * seeded hashes are the oracle the importer's verifier is tested against.
 */
async function firebaseHash(password: string, salt: Buffer): Promise<Buffer> {
  const derived = await new Promise<Buffer>((resolve, reject) =>
    crypto.scrypt(password, Buffer.concat([salt, HASH.saltSeparator]), 64, { N: 2 ** HASH.memCost, r: HASH.rounds, p: 1, maxmem: 64 * 2 ** 20 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
  const cipher = crypto.createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
  return Buffer.concat([cipher.update(HASH.signerKey), cipher.final()]);
}

/** Checked once per process: a wrong oracle would make every password test meaningless. */
let vectorChecked: Promise<void> | undefined;
const checkTestVector = () =>
  (vectorChecked ??= firebaseHash(VECTOR_ACCOUNT.password, Buffer.from(VECTOR_ACCOUNT.salt, 'base64')).then((hash) => {
    if (hash.toString('base64') !== VECTOR_ACCOUNT.hash) {
      throw new Error('firebaseHash does not reproduce the firebase/scrypt test vector');
    }
  }));

export interface SeededMember {
  uid: string;
  /** The profile document as written (firebase-admin values); undefined for the Auth user without one. */
  profile: Record<string, unknown> | undefined;
  /** The profile's email (as written, case and all). */
  email: string | undefined;
  authEmail: string;
  emailVerified: boolean;
  disabled: boolean;
  /** False for the Google-only account. */
  hasPassword: boolean;
  /** Standard base64 of what was imported (listUsers hands both back as padded base64url). */
  passwordSalt?: string;
  passwordHash?: string;
  /** The Auth metadata.creationTime written (the emulator keeps it to the second). */
  creationTime: Date;
  pageViews: FirestoreDoc[];
}

export interface BadDocument {
  collection: string;
  id: string;
  /** As the importer reports it (formatPath): `slug`, `["price/usd"]`. */
  field: string;
}

export interface SeededProject {
  projectId: string;
  /** The JSON Firebase's console shows (Authentication → Users → ⋮ → Password hash parameters). */
  hashConfigJson: { hash_config: { algorithm: 'SCRYPT'; base64_signer_key: string; base64_salt_separator: string; rounds: number; mem_cost: number } };
  /** Every account with a password, by uid. */
  passwords: Map<string, string>;
  /** Every Auth account in import order: the members, then the one without a profile. */
  users: SeededMember[];
  /** The odd accounts: an Auth user without a profile and a profile whose email differs from its Auth
   * email (the importer reports both), a Google-only account (no password) and a disabled one. */
  special: { authOnlyUid: string; emailMismatchUid: string; googleOnlyUid: string; disabledUid: string };
  /** Documents per collection (`pageViews`: over all users; `auth`: Auth accounts). */
  counts: Record<'services' | 'demos' | 'packages' | 'articles' | 'faqs' | 'config' | 'users' | 'pageViews' | 'auth', number>;
  bad: BadDocument[];
}

export interface SeedOptions {
  /** Members with a profile, the fixture's three included (default 100). */
  users?: number;
  /** Page views of each generated member (default 5). */
  pageViewsPerUser?: number;
  /** Also write documents the importer must refuse. */
  bad?: boolean;
}

const DAY = 86_400_000;
const BATCH_LIMIT = 500;
const IMPORT_LIMIT = 1000;

/** The fixture's look-alike values as the real firebase-admin ones, at any depth. */
function toAdmin(value: unknown, db: Firestore): unknown {
  if (value instanceof FakeTimestamp) return new Timestamp(value.seconds, value.nanoseconds);
  if (value instanceof FakeGeoPoint) return new GeoPoint(value.latitude, value.longitude);
  if (value instanceof FakeDocumentReference) return db.doc(value.path);
  if (Array.isArray(value)) return value.map((v) => toAdmin(v, db));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toAdmin(v, db)]));
  return value;
}

/** Sets every document in batches of at most 500 writes (Firestore's limit per commit). */
async function writeAll(db: Firestore, writes: Array<[path: string, data: unknown]>) {
  for (let i = 0; i < writes.length; i += BATCH_LIMIT) {
    const batch = db.batch();
    for (const [docPath, data] of writes.slice(i, i + BATCH_LIMIT)) batch.set(db.doc(docPath), data as Record<string, unknown>);
    await batch.commit();
  }
}

// Names as the site's sign-up takes them (letters, spaces, ' - .): digits would be refused by the importer.
const FIRST_NAMES = ['Ava', 'Noah', 'Mia', 'Liam', 'Zoë', 'Omar', 'Ines', 'Kai', 'Maria José', 'Chloé'];
const LAST_NAMES = ['Okafor', "O'Brien", 'Nguyen', 'Smith-Jones', 'Kowalski', 'García', 'St. Clair', 'Lindqvist', 'Haddad', 'Tanaka', 'Müller'];

/** A deterministic generated member: profile fields vary the way sign-ups left them. */
function generatedProfile(n: number, now: number) {
  const uid = `gen${String(n).padStart(4, '0')}${crypto.createHash('sha1').update(String(n)).digest('hex').slice(0, 21)}`;
  const createdAt = Timestamp.fromMillis(now - (300 - (n % 250)) * DAY - n * 60_000);
  const profile: Record<string, unknown> = { uid, email: `member${n}@example.com`, firstName: FIRST_NAMES[n % FIRST_NAMES.length]!, lastName: LAST_NAMES[(n * 7) % LAST_NAMES.length]!, role: 'user', createdAt };
  if (n % 3 === 0) profile.phone = `+1 555 010 ${String(n % 10_000).padStart(4, '0')}`;
  if (n % 4 === 0) profile.website = `https://member${n}.example.com`;
  if (n % 5 === 0) profile.signupSource = n % 10 === 0 ? '/packages' : `/package/${DEMO_PACKAGES[n % DEMO_PACKAGES.length]!.id}`;
  return { uid, profile, createdAt };
}

const PAGE_PATHS = ['/', '/services', '/packages', '/demos', '/articles', '/dashboard', ...DEMO_PACKAGES.map((p) => `/package/${p.id}`), ...DEMO_ARTICLES.map((a) => `/articles/${a.id}`)];

/** Page views after `since`: timestamps alternate between Timestamps and Date.now() milliseconds, as the tracker wrote both. */
function generatedPageViews(n: number, count: number, since: number, now: number): FirestoreDoc[] {
  const session = (k: number) => `session_${crypto.createHash('sha1').update(`${n}-${k}`).digest('base64url').slice(0, 12)}`;
  return Array.from({ length: count }, (_, k) => {
    const at = since + Math.floor(((now - since) * (k + 1)) / (count + 2));
    return {
      id: `pv${k + 1}`,
      data: { pagePath: PAGE_PATHS[(n + k) % PAGE_PATHS.length]!, duration: 1_500 + ((n * 7919 + k * 104_729) % 300_000), timestamp: k % 2 ? at : Timestamp.fromMillis(at), sessionId: session(Math.floor(k / 3)) },
    };
  });
}

interface Member {
  uid: string;
  profile: Record<string, unknown>;
  pageViews: FirestoreDoc[];
  createdAt: Date;
}

type Account = { uid: string; email: string; createdAt: Date; member: Member | undefined; verified: boolean; disabled: boolean; google: boolean };

/** One Auth account: a Google sign-in, or a password hashed the way Firebase does (its own salt). */
async function importRecord(a: Account, i: number): Promise<{ record: UserImportRecord; seeded: SeededMember; password?: string }> {
  const { firstName, lastName, email } = a.member?.profile ?? {};
  const displayName = typeof firstName === 'string' ? `${firstName.trim()} ${String(lastName ?? '').trim()}` : undefined;
  const record: UserImportRecord = { uid: a.uid, email: a.email, emailVerified: a.verified, disabled: a.disabled, displayName, metadata: { creationTime: a.createdAt.toUTCString() } };
  const seeded: SeededMember = {
    uid: a.uid,
    profile: a.member?.profile,
    email: typeof email === 'string' ? email : undefined,
    authEmail: a.email,
    emailVerified: a.verified,
    disabled: a.disabled,
    hasPassword: !a.google,
    creationTime: a.createdAt,
    pageViews: a.member?.pageViews ?? [],
  };
  if (a.google) {
    return { record: { ...record, providerData: [{ uid: `1${String(i).padStart(20, '0')}`, providerId: 'google.com', email: a.email, displayName }] }, seeded };
  }
  const password = `pw-${a.uid.slice(0, 6)}-${i}!`;
  const salt = crypto.randomBytes(12);
  const hash = await firebaseHash(password, salt);
  return {
    record: { ...record, passwordHash: hash, passwordSalt: salt },
    seeded: { ...seeded, passwordSalt: salt.toString('base64'), passwordHash: hash.toString('base64') },
    password,
  };
}

/** Imports accounts 1000 at a time (importUsers' limit); any refused account is an error of the harness. */
async function importAll(auth: Auth, records: UserImportRecord[]) {
  const hash = { algorithm: 'SCRYPT' as const, key: HASH.signerKey, saltSeparator: HASH.saltSeparator, rounds: HASH.rounds, memoryCost: HASH.memCost };
  for (let i = 0; i < records.length; i += IMPORT_LIMIT) {
    const result = await auth.importUsers(records.slice(i, i + IMPORT_LIMIT), { hash });
    if (result.failureCount > 0) {
      throw new Error(`importUsers refused ${result.failureCount} users: ${result.errors.map((e) => `#${i + e.index}: ${e.error.message}`).join('; ')}`);
    }
  }
}

/** Smallest `users`: the fixture's three plus the four generated members given a special role below. */
const MIN_USERS = 7;

export async function seedFirebaseProject(emu: FirebaseEmulators, options: SeedOptions = {}): Promise<SeededProject> {
  const { users: memberCount = 100, pageViewsPerUser = 5 } = options;
  if (memberCount < MIN_USERS) throw new Error(`seedFirebaseProject needs at least ${MIN_USERS} users`);
  await checkTestVector();
  // firebase-admin reads these when the app's services are created.
  Object.assign(process.env, emu.env);
  const app = initializeApp({ projectId: emu.projectId }, `seed-${emu.projectId}-${crypto.randomUUID()}`);
  try {
    const db = getFirestore(app);
    const now = Date.now();
    const source = goodSource();
    const writes: Array<[path: string, data: unknown]> = [];
    const content = { services: source.services, demos: source.demos, packages: source.packages, articles: source.articles, faqs: source.faqs, config: [source.config!] };
    for (const [collection, list] of Object.entries(content)) for (const d of list) writes.push([`${collection}/${d.id}`, toAdmin(d.data, db)]);

    // The fixture's three members (as written: a profile without createdAt, page views from its own clock), then generated ones.
    const members: Member[] = source.users.map((u) => {
      const profile = toAdmin(u.data, db) as Record<string, unknown>;
      const createdAt = profile.createdAt instanceof Timestamp ? profile.createdAt.toDate() : new Date(now - 400 * DAY);
      return { uid: u.id, profile, pageViews: (source.pageViews[u.id] ?? []).map((pv) => ({ id: pv.id, data: toAdmin(pv.data, db) })), createdAt };
    });
    for (let n = members.length; n < memberCount; n++) {
      const { uid, profile, createdAt } = generatedProfile(n, now);
      members.push({ uid, profile, pageViews: generatedPageViews(n, pageViewsPerUser, createdAt.toMillis(), now), createdAt: createdAt.toDate() });
    }
    // The accounts the importer must notice are generated members, so the fixture's stay as they are.
    const [mismatch, google, disabled, owner] = members.slice(source.users.length) as [Member, Member, Member, Member];

    const bad: BadDocument[] = [];
    if (options.bad) {
      const service = toAdmin(source.services[0]!.data, db) as object;
      writes.push(['services/bad-field-service', { ...service, id: 'bad-field-service', name: 'Priced per currency', 'price/usd': 99 }]);
      bad.push({ collection: 'services', id: 'bad-field-service', field: formatPath(['price/usd']) });
      writes.push(['articles/DuplicateSlugArticle01', { ...(toAdmin(source.articles[0]!.data, db) as object), title: 'The same slug again' }]);
      bad.push({ collection: 'articles', id: 'DuplicateSlugArticle01', field: 'slug' });
      owner.profile.role = 'owner';
      bad.push({ collection: 'users', id: owner.uid, field: 'role' });
    }
    for (const m of members) {
      writes.push([`users/${m.uid}`, m.profile]);
      for (const pv of m.pageViews) writes.push([`users/${m.uid}/pageViews/${pv.id}`, pv.data]);
    }

    // Auth: every member (the fixture's mixed-case email lowercased, as Firebase keeps it), plus one
    // account that never got a profile. Most emails are verified; Google vouches for its own.
    const accounts: Account[] = [
      ...members.map((m, i) => ({
        uid: m.uid,
        email: m === mismatch ? `renamed-${i}@example.net` : String(m.profile.email).toLowerCase(),
        createdAt: m.createdAt,
        member: m,
        verified: m === google || i % 7 !== 5,
        disabled: m === disabled,
        google: m === google,
      })),
      { uid: 'authOnlyNoProfile000000000001', email: 'no-profile@example.com', createdAt: new Date(now - 50 * DAY), member: undefined, verified: true, disabled: false, google: false },
    ];
    // Hashing (scrypt, ~50 ms each on libuv's threads) overlaps the Firestore writes.
    const [imported] = await Promise.all([Promise.all(accounts.map(importRecord)), writeAll(db, writes)]);
    await importAll(getAuth(app), imported.map((x) => x.record));

    const count = (collection: string) => writes.filter(([p]) => p.split('/').length === 2 && p.startsWith(`${collection}/`)).length;
    return {
      projectId: emu.projectId,
      hashConfigJson: {
        hash_config: { algorithm: 'SCRYPT', base64_signer_key: HASH.signerKey.toString('base64'), base64_salt_separator: HASH.saltSeparator.toString('base64'), rounds: HASH.rounds, mem_cost: HASH.memCost },
      },
      passwords: new Map(imported.flatMap((x) => (x.password ? [[x.record.uid, x.password] as const] : []))),
      users: imported.map((x) => x.seeded),
      special: { authOnlyUid: accounts.at(-1)!.uid, emailMismatchUid: mismatch.uid, googleOnlyUid: google.uid, disabledUid: disabled.uid },
      counts: {
        services: count('services'),
        demos: count('demos'),
        packages: count('packages'),
        articles: count('articles'),
        faqs: count('faqs'),
        config: count('config'),
        users: count('users'),
        pageViews: writes.filter(([p]) => p.includes('/pageViews/')).length,
        auth: accounts.length,
      },
      bad,
    };
  } finally {
    await deleteApp(app);
  }
}
