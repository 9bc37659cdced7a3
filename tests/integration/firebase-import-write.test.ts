/**
 * The Firebase importer's plan and write steps on the real database engines (PGlite and PostgreSQL), fed
 * the fixture project directly (the CLI with the emulators is tests/integration/firebase-import-cli.test.ts):
 * all-or-nothing, idempotent re-runs, resume after an interruption, what a re-run never undoes, members
 * joined to an account already here, and the moved password signing in.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { firebaseHashConfigSchema } from '../../src/server/auth/firebase-password';
import { accounts, activityLog, appConfig, auditRequests, jobs, leadEvents, mailQueue, mailUnsubscribes, pageTimes, services, users } from '../../src/server/db/schema';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { erasePerson } from '../../src/server/modules/leads/erase';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { FIREBASE_HASH_CONFIG_KEY } from '../../src/server/modules/firebase-auth/hash-config';
import type { AuthAccount } from '../../src/server/modules/firebase-import/members';
import { planFirebaseImport, type PlanResult } from '../../src/server/modules/firebase-import/plan-import';
import type { FirebaseProject } from '../../src/server/modules/firebase-import/read-firebase';
import { CHECKPOINT_KEY, DISABLED_REASON, writeFirebaseImport, type ImportPlan } from '../../src/server/modules/firebase-import/write-import';
import { Browser, createAuthHarness, type AuthHarness } from '../support/auth';
import { urlSafe, VECTOR_ACCOUNT, VECTOR_HASH_CONFIG_JSON } from '../support/firebase-vector';
import { goodSource, NOW } from '../support/firestore-fixture';

const HASH_CONFIG = firebaseHashConfigSchema.parse(VECTOR_HASH_CONFIG_JSON);
// The test vector's account as listUsers hands it out (URL-safe base64).
const VECTOR = { password: VECTOR_ACCOUNT.password, salt: urlSafe(VECTOR_ACCOUNT.salt), hash: urlSafe(VECTOR_ACCOUNT.hash) };

const OWNER = 'kR2mX9pQ4tV7wY1zA3bC5dE6fG8h';
const SAM = 'uA1bC2dE3fG4hI5jK6lM7nO8pQ9r';
const QUIET = 'zZ9yY8xX7wW6vV5uU4tT3sS2rR1q';

const account = (uid: string, email: string, extra: Partial<AuthAccount> = {}): AuthAccount => ({
  uid,
  email,
  emailVerified: true,
  disabled: false,
  creationTime: 'Tue, 01 Jul 2025 09:00:00 GMT',
  passwordHash: VECTOR.hash,
  passwordSalt: VECTOR.salt,
  providers: ['password'],
  ...extra,
});

function project(accountsOverride?: AuthAccount[]): FirebaseProject {
  return {
    source: goodSource(),
    accounts: accountsOverride ?? [
      account(OWNER, 'owner@autoflow.agency'),
      account(SAM, 'sam@clinic.example', { disabled: true }),
      // Signed up with Google: no password; and an Auth account without a profile.
      account('gOnLyUsEr000000000000000001', 'g@example.com', { passwordHash: undefined, passwordSalt: undefined, providers: ['google.com'] }),
      account('nOpRoFiLe0000000000000000002', 'NoProfile@Example.com', { emailVerified: false }),
      account('pHoNeOnLy0000000000000000003', undefined as unknown as string, { passwordHash: undefined, passwordSalt: undefined, providers: ['phone'] }),
    ],
    configFrom: 'config/landingPage',
    configCandidates: [],
  };
}

let h: AuthHarness;
const db = () => h.handle.db;
const now = new Date(NOW);

async function plan(p = project(), hashConfig: typeof HASH_CONFIG | null = HASH_CONFIG): Promise<PlanResult> {
  return planFirebaseImport(db(), p, { projectId: 'agency-demo', hashConfig: hashConfig ?? undefined, now });
}
async function okPlan(p?: FirebaseProject): Promise<ImportPlan> {
  const result = await plan(p);
  if (!result.ok) throw new Error(result.problems.map((x) => x.message).join('\n'));
  return result.plan;
}
const rows = async (table: typeof users | typeof pageTimes | typeof services) => (await db().select({ n: count() }).from(table))[0]!.n;
const credential = async (userId: string) =>
  (await db().select({ password: accounts.password }).from(accounts).where(eq(accounts.userId, userId))).map((r) => r.password);

beforeAll(async () => {
  h = await createAuthHarness();
});
afterAll(() => h.close());

async function emptyTables() {
  for (const table of [pageTimes, accounts, users, services, appConfig]) await db().delete(table);
}

describe('planning a Firebase import', () => {
  beforeEach(emptyTables);

  it('joins Auth accounts and profiles: Auth email and flags, profile names and role; says what it left out', async () => {
    const result = await plan();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.counts).toMatchObject({ services: 6, members: 5, admins: 1, withPassword: 3, disabled: 1, joined: 0, pageViews: 3 });
    const byId = new Map(result.plan.members.map((m) => [m.id, m]));
    expect(byId.get(OWNER)).toMatchObject({ email: 'owner@autoflow.agency', role: 'admin', firstName: 'Elena', emailVerified: true });
    expect(byId.get(OWNER)!.password).toBe(`$firebase-scrypt$${VECTOR_ACCOUNT.salt}$${VECTOR_ACCOUNT.hash}`);
    expect(byId.get(SAM)).toMatchObject({ disabled: true, firstName: 'Sam', phone: '+44 20 7946 0958' });
    // A profile without an Auth account: no password, not verified.
    expect(byId.get(QUIET)).toMatchObject({ emailVerified: false, disabled: false });
    expect(byId.get(QUIET)!.password).toBeUndefined();
    expect(byId.get('nOpRoFiLe0000000000000000002')).toMatchObject({ email: 'noprofile@example.com', firstName: '', role: 'user' });
    expect(byId.has('pHoNeOnLy0000000000000000003')).toBe(false);
    const notes = result.notes.map((n) => `${n.collection}/${n.id}: ${n.message}`);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^users\/zZ9y.*no Firebase Auth account: imported without a password/),
        expect.stringMatching(/^auth\/nOpRoFiLe.*no users document: imported as a member without a name/),
        expect.stringMatching(/^auth\/pHoNeOnLy.*no email \(phone or anonymous sign-in\): not imported/),
        expect.stringMatching(/^auth\/gOnLyUsEr.*signs in with google\.com only/),
      ]),
    );
  });

  it('keeps the Auth email when the profile says another, and says so', async () => {
    const p = project();
    p.accounts[1] = account(SAM, 'sam.new@clinic.example');
    const result = await plan(p);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.plan.members.find((m) => m.id === SAM)!.email).toBe('sam.new@clinic.example');
    expect(result.notes).toContainEqual(expect.objectContaining({ id: SAM, field: 'email', message: expect.stringContaining('sam.new@clinic.example is kept (members sign in with it)') }));
  });

  it('leaves out a member erased here on request (issue 39), with their page views, and says so without naming them', async () => {
    const { userId: admin } = await h.signUpVerified({ email: 'owner@example.com' });
    const request = auditSubmissionOf({ fullName: 'Sam Clinic', email: 'Sam@Clinic.example', businessName: 'Sam’s Clinic', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true });
    const submitted = await submitAuditRequest(request, { clientIp: '203.0.113.9', userId: undefined });
    expect(submitted.kind).toBe('accepted');
    const before = await plan();
    if (!before.ok) throw new Error('no plan');
    expect(before.plan.members.map((m) => m.id)).toContain(SAM);
    expect(before.plan.pageTimes.filter((p) => p.userId === SAM).length).toBeGreaterThan(0);
    await erasePerson(admin, 'sam@clinic.example');
    try {
      const result = await plan();
      if (!result.ok) throw new Error('no plan');
      expect(result.plan.members.map((m) => m.id)).not.toContain(SAM);
      expect(result.plan.pageTimes.filter((p) => p.userId === SAM)).toEqual([]);
      expect(result.notes).toContainEqual({ collection: 'users', id: SAM, field: 'email', message: 'this person was erased from the site on request: not imported, nor their page views' });
      expect(JSON.stringify(result.notes)).not.toContain('sam@clinic.example');
      expect(result.counts.members).toBe(4);
    } finally {
      await db().delete(mailUnsubscribes);
      await db().delete(activityLog);
      await db().delete(auditRequests);
      await db().delete(leadEvents);
      await db().delete(mailQueue);
      await db().delete(jobs);
    }
  });

  it('refuses without the project hash config when accounts carry Firebase passwords', async () => {
    const result = await plan(project(), null);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([expect.objectContaining({ collection: 'auth', message: expect.stringContaining('3 accounts have Firebase passwords: pass --auth-hash-config') })]);
  });

  it('lists every problem and plans nothing when a document is bad (unknown role, forbidden field, bad hash)', async () => {
    const p = project();
    (p.source.users[1]!.data as Record<string, unknown>).role = 'owner';
    (p.source.services[0]!.data as Record<string, unknown>)['price/usd'] = 10;
    const result = await plan(p);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ collection: 'users', id: SAM, field: 'role', message: 'must be "user" or "admin"' }),
        expect.objectContaining({ collection: 'services', field: '["price/usd"]' }),
      ]),
    );
    const badHash = project();
    badHash.accounts[0] = account(OWNER, 'owner@autoflow.agency', { passwordHash: 'not base64!' });
    const second = await plan(badHash);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.problems).toEqual([expect.objectContaining({ collection: 'auth', id: OWNER, field: 'passwordHash' })]);
    expect(await rows(users)).toBe(0);
  });

  it('several config documents with blockOrder are a problem unless one is named', async () => {
    const result = await plan({ ...project(), configCandidates: ['config/landingPage', 'settings/home'] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]!.message).toContain('several documents hold blockOrder (config/landingPage, settings/home): name one with --config-document');
  });
});

describe('writing a Firebase import', () => {
  beforeEach(emptyTables);

  it('writes everything; a second run updates in place without duplicates', async () => {
    const first = await writeFirebaseImport(db(), await okPlan(), { now });
    expect(first).toMatchObject({ members: 5, pageTimes: 3, resumedBatches: 0 });
    expect(first.content.services).toBe(6);
    expect([await rows(users), await rows(pageTimes), await rows(services)]).toEqual([5, 3, 6]);
    const [owner] = await db().select().from(users).where(eq(users.id, OWNER));
    expect(owner).toMatchObject({ role: 'admin', name: 'Elena Marsh', emailVerified: true, banned: false });
    const [sam] = await db().select().from(users).where(eq(users.id, SAM));
    expect(sam).toMatchObject({ banned: true, banReason: DISABLED_REASON });
    expect(await credential(OWNER)).toEqual([expect.stringMatching(/^\$firebase-scrypt\$/)]);
    expect(await credential(QUIET)).toEqual([]);
    const [stored] = await db().select().from(appConfig).where(eq(appConfig.key, FIREBASE_HASH_CONFIG_KEY));
    expect(stored?.value).toMatchObject({ rounds: 8, memCost: 14, saltSeparator: 'Bw==' });

    // Firebase changed meanwhile: a re-run updates names, never duplicates rows or credential accounts.
    const p = project();
    (p.source.users[0]!.data as Record<string, unknown>).lastName = 'Marsh-Hale';
    const again = await writeFirebaseImport(db(), await okPlan(p), { now });
    expect(again.resumedBatches).toBe(0);
    expect([await rows(users), await rows(pageTimes), await rows(services)]).toEqual([5, 3, 6]);
    expect((await db().select().from(users).where(eq(users.id, OWNER)))[0]).toMatchObject({ name: 'Elena Marsh-Hale' });
    expect(await credential(OWNER)).toHaveLength(1);
  });

  it('a re-run never replaces a password changed here, un-verifies or re-enables an account', async () => {
    await writeFirebaseImport(db(), await okPlan(), { now });
    // A password changed on Firebase meanwhile (still a Firebase hash here) is updated.
    const changed = project();
    changed.accounts[0] = account(OWNER, 'owner@autoflow.agency', { passwordSalt: 'c2FsdA==', passwordHash: 'aGFzaA==' });
    await writeFirebaseImport(db(), await okPlan(changed), { now });
    expect(await credential(OWNER)).toEqual(['$firebase-scrypt$c2FsdA==$aGFzaA==']);

    await db().update(accounts).set({ password: '$argon2id$v=19$m=19456,t=2,p=1$changed' }).where(eq(accounts.userId, OWNER));
    await db().update(users).set({ emailVerified: true }).where(eq(users.id, QUIET));
    const p = project();
    p.accounts[1] = account(SAM, 'sam@clinic.example', { disabled: false });
    await writeFirebaseImport(db(), await okPlan(p), { now });
    expect(await credential(OWNER)).toEqual(['$argon2id$v=19$m=19456,t=2,p=1$changed']);
    expect((await db().select().from(users).where(eq(users.id, QUIET)))[0]!.emailVerified).toBe(true);
    expect((await db().select().from(users).where(eq(users.id, SAM)))[0]!.banned).toBe(true);
  });

  it('resumes an interrupted run at the first batch it had not written', async () => {
    const importPlan = await okPlan();
    let stopAt = 3;
    await expect(
      writeFirebaseImport(db(), importPlan, {
        now,
        batchSize: 1,
        onProgress: ({ done }) => {
          if (done >= stopAt) throw new Error('interrupted');
        },
      }),
    ).rejects.toThrow('interrupted');
    // Content (1 record) and two members (1 each) were committed with their checkpoint.
    expect(await rows(users)).toBe(2);
    const [checkpoint] = await db().select().from(appConfig).where(eq(appConfig.key, CHECKPOINT_KEY));
    expect(checkpoint?.value).toMatchObject({ batchesDone: 3 });

    stopAt = Infinity;
    const seen: number[] = [];
    const resumed = await writeFirebaseImport(db(), importPlan, { now, batchSize: 1, onProgress: ({ done }) => seen.push(done) });
    expect(resumed.resumedBatches).toBe(3);
    expect(seen[0]).toBe(3);
    expect([await rows(users), await rows(pageTimes)]).toEqual([5, 3]);

    // Another import (different data) starts from the beginning.
    const p = project();
    (p.source.users[0]!.data as Record<string, unknown>).lastName = 'Other';
    expect((await writeFirebaseImport(db(), await okPlan(p), { now, batchSize: 1 })).resumedBatches).toBe(0);
  });

  it('a member whose email already has an account here joins it: that account is kept, the page views move to it', async () => {
    const { userId } = await h.signUpVerified({ email: 'sam@clinic.example' });
    await db().update(users).set({ role: 'user' }).where(eq(users.id, userId));
    const p = project();
    (p.source.users[1]!.data as Record<string, unknown>).role = 'admin';
    const result = await plan(p);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.counts).toMatchObject({ members: 4, joined: 1 });
    expect(result.notes).toContainEqual(expect.objectContaining({ id: SAM, message: expect.stringContaining('already has an account on this site') }));
    await writeFirebaseImport(db(), result.plan, { now });
    const views = await db().select({ userId: pageTimes.userId }).from(pageTimes);
    expect(views.map((v) => v.userId)).toEqual([userId, userId, userId]);
    const [kept] = await db().select().from(users).where(eq(users.id, userId));
    expect(kept).toMatchObject({ role: 'user', banned: false });
    expect(await rows(users)).toBe(5);
  });

  it('the moved member signs in with the Firebase password, which is then re-hashed with argon2id', async () => {
    await writeFirebaseImport(db(), await okPlan(), { now });
    const wrong = await h.signIn('owner@autoflow.agency', 'user1Password');
    expect(wrong.status).toBe(401);
    const res = await h.signIn('owner@autoflow.agency', VECTOR.password, new Browser());
    expect(res.status).toBe(200);
    expect(await credential(OWNER)).toEqual([expect.stringMatching(/^\$argon2id\$/)]);
    // Disabled in Firebase: refused with the right password.
    expect((await h.signIn('sam@clinic.example', VECTOR.password)).status).not.toBe(200);
  });
});
