import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { users as usersTable } from '../../src/server/db/schema';
import { readSession } from '../../src/server/guards/session';
import { createAuthHarness, type AuthHarness, type Browser } from '../support/auth';

// `astro:actions` is a virtual module of Astro's Vite plugin; outside a build, give the actions Astro's
// real defineAction/ActionError so input parsing and error shapes are the ones production uses.
vi.mock('astro:actions', async () => {
  const server = await import('../../node_modules/astro/dist/actions/runtime/server.js');
  const client = await import('../../node_modules/astro/dist/actions/runtime/client.js');
  return { defineAction: server.defineAction, ActionError: client.ActionError, isInputError: client.isInputError };
});

const { server } = await import('../../src/actions');

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
});
afterEach(() => h.close());

/** The action's context as the middleware leaves it: locals.user from the request's session cookie. */
async function contextFor(browser?: Browser) {
  const headers = new Headers(browser ? { cookie: browser.cookieHeader } : {});
  const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
  return { locals: found ? { user: found.user, session: found.session } : {} };
}

type Handler = { orThrow: (this: unknown, input: unknown) => Promise<unknown> };
const call = async (action: unknown, input: unknown, browser?: Browser) =>
  (action as Handler).orThrow.call(await contextFor(browser), input);

const failure = (code: string, message?: string) =>
  expect.objectContaining({ type: 'AstroActionError', code, ...(message ? { message } : {}) });

describe('account.updateProfile', () => {
  const input = { firstName: '  Grace ', lastName: 'Hopper', phone: ' +1 555 0100 ', website: 'example.com' };

  it('fails with "No user logged in" for a visitor (401)', async () => {
    await expect(call(server.account.updateProfile, input)).rejects.toEqual(failure('UNAUTHORIZED', 'No user logged in'));
  });

  it('saves the signed-in member’s own profile: trimmed, website normalized, blank removes', async () => {
    const member = await h.signUpVerified({ email: 'member@example.com', phone: '+1 555 0199', website: 'old.example' });
    const saved = await call(server.account.updateProfile, input, member.browser);
    expect(saved).toEqual({ firstName: 'Grace', lastName: 'Hopper', name: 'Grace Hopper', phone: '+1 555 0100', website: 'https://example.com' });

    await call(server.account.updateProfile, { firstName: 'Grace', lastName: 'Hopper', phone: '   ', website: '' }, member.browser);
    const row = await h.userByEmail('member@example.com');
    expect(row).toMatchObject({ firstName: 'Grace', phone: null, website: null });
  });

  it('answers field errors and refuses fields a member may not set', async () => {
    await h.signUpVerified({ email: 'owner@example.com' }); // the first verified user becomes admin
    const member = await h.signUpVerified({ email: 'member@example.com' });
    const bad = call(server.account.updateProfile, { firstName: ' ', lastName: 'X', website: 'not a site' }, member.browser);
    await expect(bad).rejects.toMatchObject({ type: 'AstroActionInputError', code: 'BAD_REQUEST' });
    const err = (await bad.catch((e: unknown) => e)) as { fields: Record<string, string[]> };
    expect(err.fields.firstName).toEqual(['First name is required']);
    expect(err.fields.website).toEqual(['Please enter a valid website address']);

    await expect(
      call(server.account.updateProfile, { firstName: 'A', lastName: 'B', role: 'admin' }, member.browser),
    ).rejects.toMatchObject({ type: 'AstroActionInputError' });
    expect((await h.userByEmail('member@example.com'))?.role).toBe('user');
  });
});

describe('users.promote', () => {
  it('refuses a visitor (401) and a member promoting anyone, themself included (403); nothing changes', async () => {
    await h.signUpVerified({ email: 'owner@example.com' }); // first verified user: the admin
    const member = await h.signUpVerified({ email: 'member@example.com' });
    const other = await h.signUpVerified({ email: 'other@example.com' });

    await expect(call(server.users.promote, { userId: other.userId })).rejects.toEqual(failure('UNAUTHORIZED', 'No user logged in'));
    await expect(call(server.users.promote, { userId: other.userId }, member.browser)).rejects.toEqual(
      failure('FORBIDDEN', 'Only an admin can change roles'),
    );
    await expect(call(server.users.promote, { userId: member.userId }, member.browser)).rejects.toEqual(failure('FORBIDDEN'));
    expect((await h.userByEmail('member@example.com'))?.role).toBe('user');
    expect((await h.userByEmail('other@example.com'))?.role).toBe('user');
  });

  it('lets an admin promote a verified user; maps unknown and unverified targets to 404 and 409', async () => {
    const admin = await h.signUpVerified({ email: 'owner@example.com' });
    const member = await h.signUpVerified({ email: 'member@example.com' });
    await h.signUp({ email: 'pending@example.com' });
    const pending = await h.userByEmail('pending@example.com');

    await expect(call(server.users.promote, { userId: 'no-such-user' }, admin.browser)).rejects.toEqual(failure('NOT_FOUND'));
    await expect(call(server.users.promote, { userId: pending!.id }, admin.browser)).rejects.toEqual(failure('CONFLICT'));
    await expect(call(server.users.promote, { userId: ' ' }, admin.browser)).rejects.toMatchObject({ type: 'AstroActionInputError' });

    expect(await call(server.users.promote, { userId: member.userId }, admin.browser)).toEqual({ id: member.userId, role: 'admin' });
    expect((await h.userByEmail('member@example.com'))?.role).toBe('admin');
  });

  it('refuses self-promotion even while no admin exists: only an admin (or the start-up claim link) makes admins', async () => {
    const first = await h.signUpVerified({ email: 'first@example.com' });
    const second = await h.signUpVerified({ email: 'second@example.com' });
    // No admin at all (e.g. the first admin was demoted by an operator).
    await h.handle.db.update(usersTable).set({ role: 'user' }).where(eq(usersTable.id, first.userId));

    await expect(call(server.users.promote, { userId: first.userId }, second.browser)).rejects.toEqual(failure('FORBIDDEN'));
    await expect(call(server.users.promote, { userId: second.userId }, second.browser)).rejects.toEqual(failure('FORBIDDEN'));
    expect((await h.userByEmail('second@example.com'))?.role).toBe('user');
  });
});

describe('admin.audit.siteCheckState (issue 36: it had no role check of its own, only the route guard)', () => {
  it('answers an admin, and refuses a visitor (401) and a member (403) when called past the route guard', async () => {
    const admin = await h.signUpVerified({ email: 'owner@example.com' }); // the first verified user: the admin
    const member = await h.signUpVerified({ email: 'member@example.com' });
    const { submitAuditRequest } = await import('../../src/server/modules/audit/service');
    const { auditSubmissionOf } = await import('../../src/shared/schemas/audit');
    const fields = { fullName: 'Ada Lovelace', email: 'ada@example.com', businessName: 'Analytical Clinic', website: 'https://clinic.example', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
    const sent = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: '198.51.100.7', userId: undefined });
    const id = sent.kind === 'accepted' ? sent.id! : '';

    // The handler called directly: what the route guard would have stopped must be stopped here too.
    await expect(call(server.admin.audit.siteCheckState, { id })).rejects.toEqual(failure('UNAUTHORIZED'));
    await expect(call(server.admin.audit.siteCheckState, { id }, member.browser)).rejects.toEqual(failure('FORBIDDEN', 'Only an admin can do this.'));
    expect(await call(server.admin.audit.siteCheckState, { id }, admin.browser)).toMatchObject({ id: expect.any(String), status: 'queued' });
    expect(await call(server.admin.audit.siteCheckState, { id: crypto.randomUUID() }, admin.browser)).toBeNull();
  });
});
