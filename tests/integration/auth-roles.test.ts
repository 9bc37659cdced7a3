import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/server/db/schema';
import { disableUser, makeAdminByEmail, promote, setRole, UsersError } from '../../src/server/modules/users/service';
import { Browser, createAuthHarness, PASSWORD, type AuthHarness } from '../support/auth';

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
});
afterEach(() => h.close());

const roleOf = async (email: string) => (await h.userByEmail(email))?.role;
const refusal = (code: string) => expect.objectContaining({ name: 'UsersError', code });

describe('first verified user becomes admin', () => {
  it('promotes the first user to verify while they are the only row; the second stays a user', async () => {
    const first = await h.signUpVerified({ email: 'owner@example.com' });
    expect(await roleOf('owner@example.com')).toBe('admin');
    expect((await h.session(first.browser))?.user.role).toBe('admin');

    await h.signUpVerified({ email: 'member@example.com' });
    expect(await roleOf('member@example.com')).toBe('user');
  });

  it('promotes nobody once a second account exists before the first one verifies', async () => {
    await h.signUp({ email: 'a@example.com' });
    await h.signUp({ email: 'b@example.com' });
    await h.click(await h.verificationLinkFor('a@example.com'));
    expect(await roleOf('a@example.com')).toBe('user');
  });

  it('two users verifying at the same moment leave at most one auto-promoted admin: with two rows, none', async () => {
    // Both links clicked in parallel. The rule counts rows, not admins: a "nobody is admin yet" check
    // would promote one or (racing) both of them here.
    await h.signUp({ email: 'p@example.com' });
    await h.signUp({ email: 'q@example.com' });
    const [lp, lq] = [await h.verificationLinkFor('p@example.com'), await h.verificationLinkFor('q@example.com')];
    const [rp, rq] = await Promise.all([h.click(lp), h.click(lq)]);
    expect([rp.status, rq.status]).toEqual([302, 302]);
    expect((await h.userByEmail('p@example.com'))?.emailVerified).toBe(true);
    expect((await h.userByEmail('q@example.com'))?.emailVerified).toBe(true);
    expect(await h.handle.db.select().from(users).where(eq(users.role, 'admin'))).toEqual([]);
  });

  it('the only user verifying while a second signs up and verifies: at most one admin, never the second', async () => {
    await h.signUp({ email: 'x@example.com' });
    const linkX = await h.verificationLinkFor('x@example.com');
    // X's count-and-promote and Y's insert are ordered by the users-table lock, whoever comes first.
    const signUpY = h.signUp({ email: 'y@example.com' }).then(async () => h.click(await h.verificationLinkFor('y@example.com')));
    await Promise.all([h.click(linkX), signUpY]);
    const admins = await h.handle.db.select().from(users).where(eq(users.role, 'admin'));
    expect(admins.map((a) => a.email)).toEqual(expect.arrayContaining(admins.length ? ['x@example.com'] : []));
    expect(admins.length).toBeLessThanOrEqual(1);
    expect((await h.userByEmail('y@example.com'))?.role).toBe('user');
  });
});

describe('manual promotion and role changes (server side only)', () => {
  it('refuses promotion by a non-admin and self-promotion while an admin exists; an admin may promote', async () => {
    const admin = await h.signUpVerified({ email: 'admin@example.com' });
    const alice = await h.signUpVerified({ email: 'alice@example.com' });
    const bob = await h.signUpVerified({ email: 'bob@example.com' });

    await expect(promote(alice.userId, bob.userId)).rejects.toEqual(refusal('NOT_ALLOWED'));
    await expect(promote(alice.userId, alice.userId)).rejects.toEqual(refusal('NOT_ALLOWED'));
    await expect(promote(undefined, alice.userId)).rejects.toThrow('No user logged in');
    expect(await roleOf('alice@example.com')).toBe('user');

    await promote(admin.userId, bob.userId);
    expect(await roleOf('bob@example.com')).toBe('admin');
  });

  it('the sign-up form cannot set a role', async () => {
    const res = await h.signUp({ email: 'sneaky@example.com', role: 'admin' } as never);
    expect(res.status).toBe(400);
    expect((await res.json()).fieldErrors.role).toEqual(['This field cannot be set']);
    expect(await h.userByEmail('sneaky@example.com')).toBeUndefined();
  });

  it('nobody promotes themself, even while no admin exists (a stranger who signs up first must not take the site)', async () => {
    await h.signUp({ email: 'stranger@example.com' });
    await h.signUp({ email: 'owner@example.com' });
    await h.click(await h.verificationLinkFor('stranger@example.com')); // two rows: no automatic admin
    const stranger = (await h.userByEmail('stranger@example.com'))!;
    const owner = (await h.userByEmail('owner@example.com'))!;

    await expect(promote(stranger.id, stranger.id)).rejects.toEqual(refusal('NOT_ALLOWED'));
    await expect(promote(stranger.id, owner.id)).rejects.toEqual(refusal('NOT_ALLOWED'));
    expect((await h.handle.db.select().from(users).where(eq(users.role, 'admin'))).length).toBe(0);
  });

  it('never demotes the last admin; with two admins one may step down', async () => {
    const admin = await h.signUpVerified({ email: 'boss@example.com' });
    const other = await h.signUpVerified({ email: 'deputy@example.com' });
    await expect(setRole(admin.userId, admin.userId, 'user')).rejects.toEqual(refusal('LAST_ADMIN'));
    await expect(setRole(other.userId, admin.userId, 'user')).rejects.toEqual(refusal('NOT_ALLOWED'));

    await setRole(admin.userId, other.userId, 'admin');
    await setRole(other.userId, admin.userId, 'user');
    expect(await roleOf('boss@example.com')).toBe('user');
    await expect(setRole(other.userId, other.userId, 'user')).rejects.toBeInstanceOf(UsersError);
    expect(await roleOf('deputy@example.com')).toBe('admin');
  });

  it('better-auth\'s own set-role endpoint is not reachable', async () => {
    const admin = await h.signUpVerified({ email: 'root@example.com' });
    const res = await h.call('/admin/set-role', { browser: admin.browser, body: { userId: admin.userId, role: 'user' } });
    expect(res.status).toBe(404);
    expect(await roleOf('root@example.com')).toBe('admin');
  });

  it('create-admin promotes an existing account by email and marks it verified', async () => {
    await h.signUp({ email: 'ops@example.com' });
    const profile = await makeAdminByEmail('  OPS@example.com ');
    expect(profile).toMatchObject({ role: 'admin', emailVerified: true });
    expect(await h.userByEmail('ops@example.com')).toMatchObject({ role: 'admin', emailVerified: true });
    await expect(makeAdminByEmail('nobody@example.com')).rejects.toEqual(refusal('NOT_FOUND'));
  });
});

describe('disabled accounts', () => {
  it('disabling an account revokes its sessions and refuses new sign-ins', async () => {
    const admin = await h.signUpVerified({ email: 'lead@example.com' });
    const member = await h.signUpVerified({ email: 'gone@example.com' });
    expect((await h.session(member.browser))?.user.email).toBe('gone@example.com');

    await expect(disableUser(member.userId, admin.userId)).rejects.toEqual(refusal('NOT_ALLOWED'));
    await disableUser(admin.userId, member.userId, 'spam');

    expect(await h.session(member.browser)).toBeNull();
    expect(await h.handle.db.select().from(sessions).where(eq(sessions.userId, member.userId))).toEqual([]);
    const res = await h.signIn('gone@example.com', PASSWORD, new Browser());
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'BANNED_USER', message: expect.stringContaining('disabled') });
  });
});
