/**
 * Reads a Firebase project with firebase-admin: the seed's collections, the landing page config document,
 * each member's page views and every Auth account (with its password hash). The only module that imports
 * firebase-admin; it reads and never writes. With FIRESTORE_EMULATOR_HOST / FIREBASE_AUTH_EMULATOR_HOST
 * set, firebase-admin talks to the emulators instead (the tests).
 */
import { randomUUID } from 'node:crypto';
import { cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type UserRecord } from 'firebase-admin/auth';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';
import type { AuthAccount } from './members';
import type { ServiceAccountKey } from './service-account';
import type { FirestoreDoc, FirestoreSource } from './source';

/** Where the seed's "single document in the app config collection" is looked for when not named. */
export const CONFIG_COLLECTIONS = ['config', 'appConfig', 'app_config', 'settings', 'appSettings'] as const;

const CONTENT_COLLECTIONS = ['services', 'demos', 'packages', 'articles', 'faqs'] as const;
/** Page-view sub-collections read at a time: enough to hide latency, few enough for Firestore's quotas. */
const PARALLEL_READS = 8;

export class FirebaseReadError extends Error {}

export interface ReadProgress {
  step: 'pageViews' | 'auth';
  done: number;
  total?: number;
}

export interface ReadOptions {
  key: ServiceAccountKey;
  projectId: string;
  /** `collection/document` of the landing page config; undefined: look in CONFIG_COLLECTIONS. */
  configDocument?: string | undefined;
  onProgress?: (progress: ReadProgress) => void;
}

export interface FirebaseProject {
  source: FirestoreSource;
  accounts: AuthAccount[];
  /** Where the config came from, or why none was taken ('config/landingPage', 'none found', …). */
  configFrom: string;
  /** Documents holding blockOrder when more than one did and none was named. */
  configCandidates: string[];
}

const docsOf = async (firestore: Firestore, path: string): Promise<FirestoreDoc[]> =>
  (await firestore.collection(path).get()).docs.map((d) => ({ id: d.id, data: d.data() }));

async function readConfig(firestore: Firestore, named: string | undefined): Promise<Pick<FirebaseProject, 'configFrom' | 'configCandidates'> & { config?: FirestoreDoc }> {
  if (named) {
    const snapshot = await firestore.doc(named).get();
    if (!snapshot.exists) throw new FirebaseReadError(`--config-document ${named}: there is no such document`);
    return { config: { id: snapshot.id, data: snapshot.data() }, configFrom: named, configCandidates: [] };
  }
  const collections = await Promise.all(CONFIG_COLLECTIONS.map((c) => docsOf(firestore, c)));
  const found = collections.flatMap((docs, i) =>
    docs.filter((doc) => 'blockOrder' in ((doc.data as Record<string, unknown> | undefined) ?? {})).map((doc) => ({ path: `${CONFIG_COLLECTIONS[i]}/${doc.id}`, doc })),
  );
  if (found.length === 1) return { config: found[0]!.doc, configFrom: found[0]!.path, configCandidates: [] };
  return { configFrom: found.length === 0 ? 'none found' : 'several found', configCandidates: found.map((f) => f.path) };
}

async function readPageViews(firestore: Firestore, uids: string[], onProgress: ReadOptions['onProgress']): Promise<Record<string, FirestoreDoc[]>> {
  const pageViews: Record<string, FirestoreDoc[]> = {};
  let next = 0;
  let done = 0;
  // Per member: listing sub-collections or a collection-group query is not something every backend offers.
  const worker = async () => {
    while (next < uids.length) {
      const uid = uids[next++]!;
      pageViews[uid] = await docsOf(firestore, `users/${uid}/pageViews`);
      onProgress?.({ step: 'pageViews', done: ++done, total: uids.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, uids.length) }, worker));
  return pageViews;
}

const toAccount = (u: UserRecord): AuthAccount => ({
  uid: u.uid,
  email: u.email,
  emailVerified: u.emailVerified,
  disabled: u.disabled,
  creationTime: u.metadata.creationTime,
  passwordHash: u.passwordHash,
  passwordSalt: u.passwordSalt,
  providers: u.providerData.map((p) => p.providerId),
});

async function readAccounts(app: App, onProgress: ReadOptions['onProgress']): Promise<AuthAccount[]> {
  const accounts: AuthAccount[] = [];
  let pageToken: string | undefined;
  do {
    const page = await getAuth(app).listUsers(1000, pageToken);
    accounts.push(...page.users.map(toAccount));
    onProgress?.({ step: 'auth', done: accounts.length });
    pageToken = page.pageToken;
  } while (pageToken);
  return accounts;
}

/** Google's errors as one line for the owner; never the request, which carries the signed token. */
function describeFirebaseError(err: unknown, projectId: string): string {
  const e = err as { code?: unknown; message?: unknown; errorInfo?: { code?: string; message?: string } };
  const code = e.errorInfo?.code ?? e.code;
  const message = String(e.errorInfo?.message ?? e.message ?? err).split('\n')[0];
  if (code === 5 || code === 'auth/project-not-found') return `Firebase project "${projectId}" was not found (or has no Firestore database): ${message}`;
  if (code === 7 || code === 16 || code === 'auth/insufficient-permission' || code === 'app/invalid-credential') {
    return `Firebase refused the service-account key for project "${projectId}": ${message}`;
  }
  return `Reading Firebase project "${projectId}" failed: ${message}`;
}

/**
 * firebase-admin hands the key to the Firestore client in a form google-auth-library calls deprecated, and
 * the library says so on every run: nothing the owner can act on, so that one notice is dropped while reading.
 */
async function withoutCredentialsNotice<T>(task: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...parts: unknown[]) => {
    if (typeof parts[0] === 'string' && parts[0].startsWith('The `credentials` option is deprecated')) return;
    warn.apply(console, parts);
  };
  try {
    return await task();
  } finally {
    console.warn = warn;
  }
}

export function readFirebaseProject(options: ReadOptions): Promise<FirebaseProject> {
  return withoutCredentialsNotice(() => read(options));
}

async function read(options: ReadOptions): Promise<FirebaseProject> {
  const { key, projectId } = options;
  let app: App;
  try {
    // cert() parses the key: a key it refuses is the owner's to fix, in one line like every other refusal.
    app = initializeApp({ credential: cert({ projectId, clientEmail: key.clientEmail, privateKey: key.privateKey }), projectId }, `import-${randomUUID()}`);
  } catch (err) {
    throw new FirebaseReadError(describeFirebaseError(err, projectId));
  }
  try {
    const firestore = getFirestore(app);
    const [services, demos, packages, articles, faqs, users] = await Promise.all(
      [...CONTENT_COLLECTIONS, 'users'].map((c) => docsOf(firestore, c)),
    );
    const { config, configFrom, configCandidates } = await readConfig(firestore, options.configDocument);
    const pageViews = await readPageViews(firestore, users!.map((u) => u.id), options.onProgress);
    const accounts = await readAccounts(app, options.onProgress);
    return {
      source: { services: services!, demos: demos!, packages: packages!, articles: articles!, faqs: faqs!, config, users: users!, pageViews },
      accounts,
      configFrom,
      configCandidates,
    };
  } catch (err) {
    if (err instanceof FirebaseReadError) throw err;
    throw new FirebaseReadError(describeFirebaseError(err, projectId));
  } finally {
    await deleteApp(app).catch(() => {});
  }
}
