import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firebaseHashConfigSchema, firebaseStoredHash } from '../../src/server/auth/firebase-password';
import { accounts, appConfig } from '../../src/server/db/schema';
import { FIREBASE_HASH_CONFIG_KEY, firebaseHashConfig, saveFirebaseHashConfig } from '../../src/server/modules/firebase-auth/hash-config';
import { Browser, createAuthHarness, type AuthHarness } from '../support/auth';
import { VECTOR_ACCOUNT, VECTOR_HASH_CONFIG_JSON } from '../support/firebase-vector';

const VECTOR_PASSWORD = VECTOR_ACCOUNT.password;
const VECTOR_HASH = firebaseStoredHash(VECTOR_ACCOUNT.salt, VECTOR_ACCOUNT.hash);
const PROJECT = firebaseHashConfigSchema.parse(VECTOR_HASH_CONFIG_JSON);
const EMAIL = 'moved@example.com';

let h: AuthHarness;
let userId: string;

const storedPassword = async () =>
  (await h.handle.db.select({ password: accounts.password }).from(accounts).where(eq(accounts.userId, userId)))[0]?.password;

/** A verified member whose credential account holds a hash moved in from Firebase. */
async function memberWithFirebaseHash(email: string) {
  const { userId: id } = await h.signUpVerified({ email });
  await h.handle.db.update(accounts).set({ password: VECTOR_HASH }).where(eq(accounts.userId, id));
  return id;
}

beforeAll(async () => {
  h = await createAuthHarness();
  userId = await memberWithFirebaseHash(EMAIL);
});
afterAll(() => h.close());

describe('passwords moved in from Firebase', () => {
  it('without the project config saved, the old password is refused like a wrong one', async () => {
    const res = await h.signIn(EMAIL, VECTOR_PASSWORD);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
    expect(await storedPassword()).toBe(VECTOR_HASH);
  });

  it('stores the project config once, base64 in app_config', async () => {
    await saveFirebaseHashConfig(PROJECT);
    const [row] = await h.handle.db.select().from(appConfig).where(eq(appConfig.key, FIREBASE_HASH_CONFIG_KEY));
    expect(row?.value).toEqual({ signerKey: PROJECT.signerKey.toString('base64'), saltSeparator: 'Bw==', rounds: 8, memCost: 14 });
    expect(await firebaseHashConfig(h.handle.db)).toEqual(PROJECT);
  });

  it('refuses a wrong password before the upgrade, with the same answer as any wrong password', async () => {
    const wrong = await h.signIn(EMAIL, 'user1Password');
    const unknown = await h.signIn('nobody@example.com', 'user1Password');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
    expect(await storedPassword()).toBe(VECTOR_HASH);
  });

  it('signs in with the old password and replaces the Firebase hash with argon2id', async () => {
    const browser = new Browser();
    const res = await h.signIn(EMAIL, VECTOR_PASSWORD, browser);
    expect(res.status).toBe(200);
    expect((await h.session(browser))?.user).toMatchObject({ email: EMAIL });
    const upgraded = await storedPassword();
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('signs in again with the same password on the new hash, and still refuses a wrong one', async () => {
    const upgraded = await storedPassword();
    const again = await h.signIn(EMAIL, VECTOR_PASSWORD, new Browser());
    expect(again.status).toBe(200);
    expect(await storedPassword()).toBe(upgraded);
    const wrong = await h.signIn(EMAIL, 'user1Password');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD' });
  });

  it('keeps the sign-in when the re-hash fails, and upgrades at the next sign-in', async () => {
    const email = 'moved-later@example.com';
    const id = await memberWithFirebaseHash(email);
    const passwordOf = async () => (await h.handle.db.select({ password: accounts.password }).from(accounts).where(eq(accounts.userId, id)))[0]?.password;
    await h.handle.db.execute(sql`
      create function refuse_rehash() returns trigger language plpgsql as $$
      begin raise exception 'database refused the write'; end $$`);
    await h.handle.db.execute(sql`create trigger refuse_rehash before update of password on accounts for each row execute function refuse_rehash()`);
    try {
      const res = await h.signIn(email, VECTOR_PASSWORD, new Browser());
      expect(res.status).toBe(200);
      expect(await passwordOf()).toBe(VECTOR_HASH);
    } finally {
      await h.handle.db.execute(sql`drop trigger refuse_rehash on accounts`);
      await h.handle.db.execute(sql`drop function refuse_rehash()`);
    }
    expect((await h.signIn(email, VECTOR_PASSWORD, new Browser())).status).toBe(200);
    expect(await passwordOf()).toMatch(/^\$argon2id\$/);
  });

  it('counts wrong Firebase passwords toward the per-account limit like any other', async () => {
    const email = 'moved-too@example.com';
    await memberWithFirebaseHash(email);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await h.signIn(email, `guess-${i}`)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
