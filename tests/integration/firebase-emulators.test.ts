/**
 * The offline Firebase harness works, and so do the reads the importer makes with firebase-admin: whole
 * collections, the config document, a user's pageViews sub-collection, and every Auth account with its
 * password hash, which our verifier accepts.
 */
import net from 'node:net';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type UserRecord } from 'firebase-admin/auth';
import { DocumentReference, getFirestore, Timestamp } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firebaseHashConfigSchema, firebaseStoredHash, verifyFirebasePassword } from '../../src/server/auth/firebase-password';
import { startFirebaseEmulators, type FirebaseEmulators } from '../support/firebase-emulators';
import { seedFirebaseProject, type SeededProject } from '../support/firebase-project';

let emu: FirebaseEmulators;
let seeded: SeededProject;
let app: App;

beforeAll(async () => {
  emu = await startFirebaseEmulators();
  seeded = await seedFirebaseProject(emu, { users: 100, bad: true });
  app = initializeApp({ projectId: emu.projectId }, `read-${emu.projectId}`);
}, 120_000);

afterAll(async () => {
  if (app) await deleteApp(app);
  await emu?.stop();
});

/** firebase-admin pages through Auth 1000 accounts at a time at most; 40 makes this test page. */
async function allAuthUsers(): Promise<UserRecord[]> {
  const users: UserRecord[] = [];
  let pageToken: string | undefined;
  do {
    const page = await getAuth(app).listUsers(40, pageToken);
    users.push(...page.users);
    pageToken = page.pageToken;
  } while (pageToken);
  return users;
}

/** Node's base64 decoder reads base64url too. */
const toBase64 = (s: string) => Buffer.from(s, 'base64').toString('base64');

const listening = (hostPort: string) =>
  new Promise<boolean>((resolve) => {
    const [host, port] = hostPort.split(':');
    const socket = net.connect(Number(port), host);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('Firebase emulators seeded with a project', () => {
  it('serves each content collection and the landing page config', async () => {
    const db = getFirestore(app);
    for (const collection of ['services', 'demos', 'packages', 'articles', 'faqs'] as const) {
      const snap = await db.collection(collection).get();
      expect(snap.size, collection).toBe(seeded.counts[collection]);
      expect(snap.docs[0]!.get('createdAt'), collection).toBeInstanceOf(Timestamp);
    }
    const config = await db.collection('config').doc('landingPage').get();
    expect(config.get('blockOrder')).toContain('hero');
    // One package stored its services as references; the bad service's field name holds a slash.
    const packages = (await db.collection('packages').get()).docs.map((d) => d.get('includedServiceIds') as unknown[]);
    expect(packages.some((ids) => ids[0] instanceof DocumentReference)).toBe(true);
    expect((await db.collection('services').doc('bad-field-service').get()).data()).toHaveProperty(['price/usd'], 99);
  });

  it('serves member profiles and a pageViews sub-collection', async () => {
    const db = getFirestore(app);
    const profiles = await db.collection('users').get();
    expect(profiles.size).toBe(seeded.counts.users);
    const member = seeded.users.find((u) => u.pageViews.length >= 5)!;
    const views = await db.collection('users').doc(member.uid).collection('pageViews').get();
    expect(views.docs.map((d) => d.id).sort()).toEqual(member.pageViews.map((d) => d.id).sort());
    const kinds = new Set(views.docs.map((d) => (d.get('timestamp') instanceof Timestamp ? 'Timestamp' : typeof d.get('timestamp'))));
    expect(kinds).toEqual(new Set(['Timestamp', 'number']));
  });

  it('lists every Auth account with its hash, and our verifier accepts the known password', async () => {
    const users = await allAuthUsers();
    expect(users).toHaveLength(seeded.counts.auth);
    const byUid = new Map(users.map((u) => [u.uid, u]));
    const config = firebaseHashConfigSchema.parse(seeded.hashConfigJson);
    for (const member of seeded.users) {
      const record = byUid.get(member.uid)!;
      expect(record.email).toBe(member.authEmail);
      expect(record.disabled).toBe(member.disabled);
      // The hash and salt arrive as padded base64url (firebase-admin uploads them web-safe, as the live
      // API returns them): the importer must convert them to the standard base64 the verifier stores.
      expect(record.passwordHash && toBase64(record.passwordHash)).toBe(member.passwordHash);
      expect(record.passwordSalt && toBase64(record.passwordSalt)).toBe(member.passwordSalt);
    }
    expect(users.some((u) => /[-_]/.test(`${u.passwordSalt}${u.passwordHash}`))).toBe(true);
    expect(byUid.get(seeded.special.googleOnlyUid)!.providerData.map((p) => p.providerId)).toEqual(['google.com']);
    expect(byUid.get(seeded.special.disabledUid)!.disabled).toBe(true);
    for (const u of users.filter((x) => x.passwordHash).slice(0, 3)) {
      const stored = firebaseStoredHash(toBase64(u.passwordSalt!), toBase64(u.passwordHash!));
      expect(await verifyFirebasePassword(stored, seeded.passwords.get(u.uid)!, config)).toBe(true);
      expect(await verifyFirebasePassword(stored, 'not the password', config)).toBe(false);
    }
  });

  it('stop() leaves nothing listening', async () => {
    await emu.stop();
    expect(await listening(emu.env.FIRESTORE_EMULATOR_HOST)).toBe(false);
    expect(await listening(emu.env.FIREBASE_AUTH_EMULATOR_HOST)).toBe(false);
  });
});
