/**
 * Who becomes admin on a new site (issue 7): the seed's first-verified-user rule stays; otherwise only
 * the owner, with the one-time claim link the server prints while no admin exists, or an admin.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminClaims, users } from '../../src/server/db/schema';
import { postgresLocks } from '../../src/server/db/advisory-lock';
import { adminClaimNotice, adminClaimStatus, announceAdminClaim, claimAdmin, claimUrl, issueAdminClaim } from '../../src/server/modules/users/admin-claim';
import { makeAdminByEmail, promote } from '../../src/server/modules/users/service';
import { createAuthHarness, type AuthHarness } from '../support/auth';
import { onPostgres, postgresUrlOf } from '../support/db';

/** The operator's ADMIN_EMAIL as the services read it (config() is parsed once per process). */
const operator = vi.hoisted(() => ({ adminEmail: undefined as string | undefined }));
vi.mock('../../src/server/config', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/config')>();
  return { ...real, config: () => ({ ...real.config(), ADMIN_EMAIL: operator.adminEmail }) };
});

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
});
afterEach(() => {
  operator.adminEmail = undefined;
  return h.close();
});

const refusal = (code: string) => expect.objectContaining({ name: 'UsersError', code });
const admins = async () => (await h.handle.db.select().from(users).where(eq(users.role, 'admin'))).map((u) => u.email);

/** A new site where a stranger signed up (and verified) before the owner: no automatic admin. */
async function strangerFirst() {
  await h.signUp({ email: 'stranger@example.com' });
  await h.signUp({ email: 'owner@example.com' });
  await h.click(await h.verificationLinkFor('stranger@example.com'));
  return { stranger: (await h.userByEmail('stranger@example.com'))!, owner: (await h.userByEmail('owner@example.com'))! };
}

describe('the one-time admin claim', () => {
  it('the owner holding the link becomes admin, once; the stranger without it cannot', async () => {
    const { stranger, owner } = await strangerFirst();
    const token = (await issueAdminClaim())!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(claimUrl('http://localhost:4321', token)).toBe(`http://localhost:4321/claim-admin?token=${token}`);
    // Only its hash is stored.
    expect((await h.handle.db.select().from(adminClaims)).map((c) => c.tokenHash)).not.toContain(token);

    await expect(claimAdmin(stranger.id, 'x'.repeat(43))).rejects.toEqual(refusal('CLAIM_INVALID'));
    await expect(promote(stranger.id, stranger.id)).rejects.toEqual(refusal('NOT_ALLOWED'));
    // Not before the owner verifies their email.
    await expect(claimAdmin(owner.id, token)).rejects.toEqual(refusal('NOT_VERIFIED'));
    await h.click(await h.verificationLinkFor('owner@example.com'));

    expect(await adminClaimStatus(token)).toBe('valid');
    expect((await claimAdmin(owner.id, token)).role).toBe('admin');
    expect(await admins()).toEqual(['owner@example.com']);

    // Used up: nobody can use it again, and the claim table is empty.
    await expect(claimAdmin(stranger.id, token)).rejects.toEqual(refusal('ADMIN_EXISTS'));
    expect(await adminClaimStatus(token)).toBe('admin-exists');
    expect(await h.handle.db.select().from(adminClaims)).toEqual([]);
    expect(await admins()).toEqual(['owner@example.com']);
  });

  it('two verified users racing with the same link: exactly one becomes admin', async () => {
    const { stranger, owner } = await strangerFirst();
    await h.click(await h.verificationLinkFor('owner@example.com'));
    const token = (await issueAdminClaim())!;
    const results = await Promise.allSettled([claimAdmin(owner.id, token), claimAdmin(stranger.id, token)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await admins()).toHaveLength(1);
  });

  it('a restart prints a new link and the old one stops working', async () => {
    const { owner } = await strangerFirst();
    await h.click(await h.verificationLinkFor('owner@example.com'));
    const first = (await issueAdminClaim())!;
    const second = (await issueAdminClaim())!;
    expect(second).not.toBe(first);
    expect(await adminClaimStatus(first)).toBe('invalid');
    await expect(claimAdmin(owner.id, first)).rejects.toEqual(refusal('CLAIM_INVALID'));
    expect((await claimAdmin(owner.id, second)).role).toBe('admin');
  });

  it('no link while an admin exists; the first-verified-user rule and create-admin end an earlier one', async () => {
    await h.signUp({ email: 'early@example.com' });
    const token = (await issueAdminClaim())!;
    // The only account verifies: the seed's rule makes it admin, and the claim dies with it.
    await h.click(await h.verificationLinkFor('early@example.com'));
    expect(await admins()).toEqual(['early@example.com']);
    expect(await h.handle.db.select().from(adminClaims)).toEqual([]);
    expect(await issueAdminClaim()).toBeUndefined();
    expect(await adminClaimStatus(token)).toBe('admin-exists');

    // With no admin left (an operator changed roles by hand), create-admin also ends a pending claim.
    await h.handle.db.update(users).set({ role: 'user' });
    expect(await issueAdminClaim()).toBeDefined();
    await makeAdminByEmail('early@example.com');
    expect(await h.handle.db.select().from(adminClaims)).toEqual([]);
  });

  it('refuses malformed tokens without a lookup, and signed-out or disabled users', async () => {
    await strangerFirst();
    const token = (await issueAdminClaim())!;
    for (const bad of [undefined, '', 'short', `${token}x`, { token }]) expect(await adminClaimStatus(bad)).toBe('invalid');
    await expect(claimAdmin(undefined, token)).rejects.toEqual(refusal('NO_USER_LOGGED_IN'));
    const stranger = (await h.userByEmail('stranger@example.com'))!;
    await h.handle.db.update(users).set({ banned: true }).where(eq(users.id, stranger.id));
    await expect(claimAdmin(stranger.id, token)).rejects.toEqual(refusal('NO_USER_LOGGED_IN'));
  });
});

describe.skipIf(!onPostgres)(`one claim link for several instances on PostgreSQL${onPostgres ? '' : ' (skipped: set TEST_DATABASE_URL)'}`, () => {
  const SITE = 'https://agency.example';
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

  it('instances starting together print one link, the others say where it is; a restart of the printer prints a new one', async () => {
    const { owner } = await strangerFirst();
    await h.click(await h.verificationLinkFor('owner@example.com'));
    const url = await postgresUrlOf(h.handle);
    // The link of an earlier run, whose process has ended.
    const earlier = (await issueAdminClaim())!;
    // Three instances, each with its own lock connection to the same database, start at once.
    const instances = [postgresLocks(url), postgresLocks(url), postgresLocks(url)];
    try {
      const started = await Promise.all(instances.map((locks) => announceAdminClaim(SITE, locks)));
      const printed = started.flatMap((a, i) => (a.kind === 'printed' ? [{ url: a.url, instance: instances[i]! }] : []));
      expect(printed).toHaveLength(1);
      const first = tokenOf(printed[0]!.url);
      expect(await adminClaimStatus(first)).toBe('valid');
      expect(await adminClaimStatus(earlier)).toBe('invalid');
      // The others name the time of the link just printed, not the earlier run's.
      const [claim] = await h.handle.db.select().from(adminClaims);
      const elsewhere = started.flatMap((a) => (a.kind === 'printed-elsewhere' ? [a.issuedAt?.getTime()] : []));
      expect(elsewhere).toEqual([claim!.createdAt.getTime(), claim!.createdAt.getTime()]);

      // Another instance starting later leaves the link alone too.
      const late = postgresLocks(url);
      instances.push(late);
      expect((await announceAdminClaim(SITE, late)).kind).toBe('printed-elsewhere');
      expect(await adminClaimStatus(first)).toBe('valid');

      // The instance that printed it stops (its lock connection ends with it) and starts again: a new link.
      await printed[0]!.instance.releaseAll();
      const again = await announceAdminClaim(SITE, printed[0]!.instance);
      expect(again.kind).toBe('printed');
      const second = tokenOf((again as { url: string }).url);
      expect(await adminClaimStatus(first)).toBe('invalid');
      expect((await claimAdmin(owner.id, second)).role).toBe('admin');
    } finally {
      await Promise.all(instances.map((locks) => locks.releaseAll()));
    }
  });
});

describe('a site whose only admins are disabled', () => {
  it('has no admin: the claim link is printed and makes the owner admin', async () => {
    const { stranger, owner } = await strangerFirst();
    await h.click(await h.verificationLinkFor('owner@example.com'));
    // An admin who was disabled keeps the role but cannot act as one.
    await h.handle.db.update(users).set({ role: 'admin', banned: true }).where(eq(users.id, stranger.id));

    const token = await issueAdminClaim();
    expect(token).toBeDefined();
    expect(await adminClaimStatus(token, owner.email)).toBe('valid');
    expect((await claimAdmin(owner.id, token)).role).toBe('admin');
    // Now there is an enabled admin: no more links.
    expect(await issueAdminClaim()).toBeUndefined();
    expect(await adminClaimStatus(token)).toBe('admin-exists');
  });
});

describe('ADMIN_EMAIL', () => {
  it('the first account of another address stays a member; the owner’s becomes admin on verifying, even after strangers', async () => {
    operator.adminEmail = 'Owner@Example.com';
    await h.signUpVerified({ email: 'stranger@example.com' });
    expect(await admins()).toEqual([]);
    await h.signUpVerified({ email: 'owner@example.com' });
    expect(await admins()).toEqual(['owner@example.com']);
    // Once there is an admin, the rule is done: nobody else is made admin by it.
    await h.signUpVerified({ email: 'someone@example.com' });
    expect(await admins()).toEqual(['owner@example.com']);
  });

  it('the claim link works only for the account of that address (any case)', async () => {
    const { stranger, owner } = await strangerFirst();
    await h.click(await h.verificationLinkFor('owner@example.com'));
    operator.adminEmail = 'OWNER@example.com';
    const token = (await issueAdminClaim())!;

    expect(await adminClaimStatus(token, stranger.email)).toBe('other-email');
    await expect(claimAdmin(stranger.id, token)).rejects.toEqual(refusal('NOT_ADMIN_EMAIL'));
    // Without the token, a stranger learns nothing about ADMIN_EMAIL.
    await expect(claimAdmin(stranger.id, 'x'.repeat(43))).rejects.toEqual(refusal('CLAIM_INVALID'));
    expect(await admins()).toEqual([]);

    expect(await adminClaimStatus(token, owner.email)).toBe('valid');
    expect((await claimAdmin(owner.id, token)).role).toBe('admin');
    expect(await admins()).toEqual(['owner@example.com']);
  });
});

describe('the start log says which way to become admin applies', () => {
  const base = { siteUrl: 'http://localhost:4321', claimUrl: 'http://localhost:4321/claim-admin?token=T', adminEmail: undefined, outbox: true };

  it('a new site: the first verified account becomes admin by itself; the claim link only if someone signed up first', () => {
    for (const accounts of [0, 1]) {
      const text = adminClaimNotice({ ...base, accounts });
      expect(text).toMatch(/^This site has no admin yet\. The first account that signs up and verifies its email becomes the admin by itself/);
      expect(text).toContain('sign up at http://localhost:4321/auth?tab=signup');
      expect(text).toContain('DATA_DIR/outbox/');
      expect(text).toContain('then go to http://localhost:4321/admin');
      expect(text).toContain('Only if someone else signed up first: open http://localhost:4321/claim-admin?token=T');
    }
  });

  it('a site with accounts but no enabled admin: the claim link is the way', () => {
    const text = adminClaimNotice({ ...base, accounts: 2 });
    expect(text).toMatch(/^This site has no admin \(or only disabled ones\)\. Sign up and verify your email/);
    expect(text).toContain('then open http://localhost:4321/claim-admin?token=T to become its admin');
    expect(text).not.toContain('by itself');
  });

  it('ADMIN_EMAIL: that account becomes admin on verifying; mail by SMTP is not said to be in the outbox', () => {
    const text = adminClaimNotice({ ...base, adminEmail: 'owner@example.com', accounts: 5, outbox: false });
    expect(text).toContain('as owner@example.com (ADMIN_EMAIL)');
    expect(text).toContain('that account becomes the admin by itself');
    expect(text).not.toContain('outbox');
  });
});
