/**
 * The admin's users screens on the server (src/server/modules/users/admin.ts and the role / disable /
 * enable writes of service.ts): the list's search, filters, order and pages; the CSV export of the
 * filtered list (formula-safe); the last admin kept; disabling signs out everywhere and enabling lets the
 * person back in; the verification email sent again (rate-limited); every write in the activity log; and
 * a member refused everywhere, through the Actions too.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activityLog, sessions, users } from '../../src/server/db/schema';
import { readSession } from '../../src/server/guards/session';
import { RESEND_VERIFICATION_LIMIT, resendVerificationEmail, userCsvChunks, userDetail, userListPage, USER_EXPORT_BATCH } from '../../src/server/modules/users/admin';
import { disableUser, enableUser, setRole, UsersError } from '../../src/server/modules/users/service';
import { parseUserListQuery, USERS_PER_PAGE, type UserListQuery } from '../../src/shared/admin-users';
import { Browser, createAuthHarness, PASSWORD, type AuthHarness } from '../support/auth';

vi.mock('astro:actions', async () => {
  const server = await import('../../node_modules/astro/dist/actions/runtime/server.js');
  const client = await import('../../node_modules/astro/dist/actions/runtime/client.js');
  return { defineAction: server.defineAction, ActionError: client.ActionError, isInputError: client.isInputError };
});
const { server } = await import('../../src/actions');

let h: AuthHarness;
let admin: { userId: string; browser: Browser };
let member: { userId: string; browser: Browser };
beforeEach(async () => {
  h = await createAuthHarness();
  admin = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' });
  member = await h.signUpVerified({ email: 'member@example.com', firstName: 'Mia', lastName: 'Member' });
});
afterEach(() => h.close());

const query = (search: string): UserListQuery => parseUserListQuery(new URLSearchParams(search));
const emailsOf = async (search: string) => (await userListPage(query(search))).rows.map((r) => r.email);
const refusal = (code: string) => expect.objectContaining({ name: 'UsersError', code });
const userActivity = (entityId: string) =>
  h.handle.db.select().from(activityLog).where(and(eq(activityLog.entityType, 'user'), eq(activityLog.entityId, entityId))).orderBy(activityLog.at);

/** Accounts straight in the table: the list's rules, not sign-up's, are under test. */
async function insertUsers(rows: Array<Partial<typeof users.$inferInsert> & { email: string }>) {
  await h.handle.db.insert(users).values(rows.map((r, i) => ({ id: `u-${r.email}`, name: r.email.split('@')[0]!, createdAt: new Date(Date.UTC(2025, 0, 1 + i)), ...r })));
}

async function csvOf(search: string, actor = admin.userId) {
  let text = '';
  for await (const chunk of await userCsvChunks(actor, query(search))) text += chunk;
  return text;
}

describe('the users list', () => {
  beforeEach(async () => {
    await insertUsers([
      { email: 'zoe@example.com', name: 'Zoë Zed', emailVerified: true },
      { email: 'bob@corp.example', name: 'bob builder', emailVerified: false },
      { email: 'carol@example.com', name: 'Carol Admin', emailVerified: true, role: 'admin' },
      { email: 'dan_x@example.com', name: 'Dan Percent 100%', emailVerified: true, banned: true, banReason: 'spam' },
    ]);
  });

  it('searches name and email, case-insensitively, with % and _ taken literally', async () => {
    expect(await emailsOf('q=ZOË')).toEqual(['zoe@example.com']);
    expect(await emailsOf('q=CORP.EXAMPLE')).toEqual(['bob@corp.example']);
    expect(await emailsOf('q=100%25')).toEqual(['dan_x@example.com']);
    expect(await emailsOf('q=n_x')).toEqual(['dan_x@example.com']);
    expect(await emailsOf('q=_')).toEqual(['dan_x@example.com']); // not "any one character"
    expect(await emailsOf('q=nobody-like-this')).toEqual([]);
  });

  it('filters by role, verification and disabled, combined', async () => {
    expect((await emailsOf('role=admin&sort=email')).sort()).toEqual(['carol@example.com', 'owner@example.com']);
    expect(await emailsOf('verified=unverified')).toEqual(['bob@corp.example']);
    expect(await emailsOf('status=disabled')).toEqual(['dan_x@example.com']);
    expect(await emailsOf('status=active&verified=verified&role=user&sort=email')).toEqual(['member@example.com', 'zoe@example.com']);
    // An unknown value is "all", never an error.
    expect((await userListPage(query('role=root&verified=maybe&status=%3Cb%3E'))).total).toBe(6);
  });

  it('sorts newest, oldest, by name (case-insensitive) and by email', async () => {
    const all = await emailsOf('sort=oldest');
    expect(all.slice(0, 4)).toEqual(['zoe@example.com', 'bob@corp.example', 'carol@example.com', 'dan_x@example.com']);
    expect(await emailsOf('')).toEqual([...all].reverse());
    expect(await emailsOf('sort=name')).toEqual(['bob@corp.example', 'carol@example.com', 'dan_x@example.com', 'member@example.com', 'owner@example.com', 'zoe@example.com']);
    expect(await emailsOf('sort=email')).toEqual(['bob@corp.example', 'carol@example.com', 'dan_x@example.com', 'member@example.com', 'owner@example.com', 'zoe@example.com']);
  });

  it('paginates in SQL: every row once across the pages, with the total', async () => {
    await insertUsers(Array.from({ length: USERS_PER_PAGE + 7 }, (_, i) => ({ email: `bulk${String(i).padStart(3, '0')}@example.com`, name: 'Bulk Person', createdAt: new Date(Date.UTC(2024, 0, 1)) })));
    const first = await userListPage(query('q=bulk&sort=name'));
    const second = await userListPage(query('q=bulk&sort=name&page=2'));
    expect(first).toMatchObject({ total: USERS_PER_PAGE + 7, pages: 2 });
    expect(first.rows).toHaveLength(USERS_PER_PAGE);
    expect(second.rows).toHaveLength(7);
    const seen = [...first.rows, ...second.rows].map((r) => r.email);
    expect(new Set(seen).size).toBe(USERS_PER_PAGE + 7);
    expect((await userListPage(query('q=bulk&page=3'))).rows).toEqual([]);
  });
});

describe('the CSV export', () => {
  it('holds every row of the filter (across batches), formula-safe, quoted, one header', async () => {
    await insertUsers([
      { email: 'evil@example.com', name: '=HYPERLINK("http://x.example","click")', emailVerified: true, website: '+1 555', phone: '@SUM(A1)' },
      { email: 'tab@example.com', name: '\tTabbed, "Quoted"', emailVerified: false, signupSource: '-2+3' },
    ]);
    const csv = await csvOf('sort=email');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Role,Verified,Disabled,Disable reason,Signed up (UTC),Signup source,Phone,Website,Id');
    expect(lines).toHaveLength(5);
    const evil = lines.find((l) => l.includes('evil@example.com'))!;
    expect(evil.startsWith(`"'=HYPERLINK(""http://x.example"",""click"")",evil@example.com,user,yes,no,`)).toBe(true);
    expect(evil).toContain(",'@SUM(A1),'+1 555,");
    const tab = lines.find((l) => l.includes('tab@example.com'))!;
    expect(tab.startsWith(`"'\tTabbed, ""Quoted""",tab@example.com,user,no,no,,`)).toBe(true);
    expect(tab).toContain(",'-2+3,");
    expect(await csvOf('verified=unverified')).not.toContain('evil@example.com');
  });

  it('streams more rows than one batch', async () => {
    await insertUsers(Array.from({ length: USER_EXPORT_BATCH + 3 }, (_, i) => ({ email: `row${i}@example.com` })));
    const chunks: string[] = [];
    for await (const chunk of await userCsvChunks(admin.userId, query('q=row'))) chunks.push(chunk);
    expect(chunks.length).toBe(3); // header, a full batch, the rest
    expect(chunks.join('').trimEnd().split('\r\n')).toHaveLength(USER_EXPORT_BATCH + 4);
  });

  it('is refused to a member', async () => {
    await expect(csvOf('', member.userId)).rejects.toEqual(refusal('NOT_ADMIN'));
  });
});

describe('a person’s page', () => {
  it('shows the profile, the live sessions only and nothing for an unknown id', async () => {
    await h.handle.db.insert(sessions).values({ id: 's-old', token: 't-old', userId: member.userId, expiresAt: new Date(Date.now() - 1000) });
    const detail = await userDetail(member.userId);
    expect(detail?.user).toMatchObject({ email: 'member@example.com', name: 'Mia Member', role: 'user', emailVerified: true, banned: false });
    const live = await h.handle.db.select().from(sessions).where(eq(sessions.userId, member.userId));
    expect(detail?.sessions.total).toBe(live.length - 1); // every live session, not the expired row
    expect(detail?.sessions.rows.map((s) => s.id)).not.toContain('s-old');
    expect(detail).toMatchObject({ auditRequests: { total: 0 }, conversations: { total: 0 } });
    expect(await userDetail('no-such-user')).toBeUndefined();
  });
});

describe('role changes', () => {
  it('promotes and demotes with an activity entry each, and never removes the last admin', async () => {
    await setRole(admin.userId, member.userId, 'admin');
    expect((await h.userByEmail('member@example.com'))?.role).toBe('admin');
    await setRole(member.userId, admin.userId, 'user');
    expect((await h.userByEmail('owner@example.com'))?.role).toBe('user');

    // member is now the only admin: neither they nor anyone else can remove them.
    await expect(setRole(member.userId, member.userId, 'user')).rejects.toEqual(refusal('LAST_ADMIN'));
    await expect(setRole(member.userId, member.userId, 'user')).rejects.toThrow('The last admin cannot be removed: promote another admin first');
    expect((await h.userByEmail('member@example.com'))?.role).toBe('admin');

    const memberEntries = await userActivity(member.userId);
    expect(memberEntries).toHaveLength(1);
    expect(memberEntries[0]).toMatchObject({ action: 'role', actorEmail: 'owner@example.com', before: { role: 'user' }, after: { role: 'admin' } });
    expect(memberEntries[0]!.summary).toBe('Mia Member (member@example.com): member → admin');
    expect(await userActivity(admin.userId)).toEqual([expect.objectContaining({ action: 'role', actorEmail: 'member@example.com', after: { role: 'user' } })]);
  });

  it('a disabled admin does not count: the only enabled admin cannot demote themselves, and may demote the disabled one', async () => {
    await setRole(admin.userId, member.userId, 'admin');
    await disableUser(admin.userId, member.userId);
    await expect(setRole(admin.userId, admin.userId, 'user')).rejects.toEqual(refusal('LAST_ADMIN'));
    expect((await h.userByEmail('owner@example.com'))?.role).toBe('admin');
    // The disabled admin was no admin to fall back on; taking their role leaves the enabled one.
    expect((await setRole(admin.userId, member.userId, 'user')).role).toBe('user');
    expect(await h.userByEmail('member@example.com')).toMatchObject({ role: 'user', banned: true });
  });

  it('through the Action: the last-admin message reaches the admin as a 409', async () => {
    const ctx = await contextFor(admin.browser);
    const demoteSelf = (server.admin.users.setRole as unknown as Handler).orThrow.call(ctx, { userId: admin.userId, role: 'user' });
    await expect(demoteSelf).rejects.toMatchObject({ type: 'AstroActionError', code: 'CONFLICT', message: 'The last admin cannot be removed: promote another admin first' });
  });
});

describe('disabling and enabling', () => {
  it('disabling signs the account out everywhere at once and refuses a new sign-in; enabling lets them back', async () => {
    const second = new Browser();
    expect((await h.signIn('member@example.com', PASSWORD, second)).status).toBe(200);
    const open = await h.handle.db.select().from(sessions).where(eq(sessions.userId, member.userId));
    expect(open.length).toBeGreaterThanOrEqual(2);

    expect(await disableUser(admin.userId, member.userId, '  Sent spam  ')).toEqual({ sessionsEnded: open.length });
    expect(await h.session(member.browser)).toBeNull();
    expect(await h.session(second)).toBeNull();
    expect(await h.handle.db.select().from(sessions).where(eq(sessions.userId, member.userId))).toEqual([]);
    expect(await h.userByEmail('member@example.com')).toMatchObject({ banned: true, banReason: 'Sent spam' });
    const refused = await h.signIn('member@example.com', PASSWORD, new Browser());
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'BANNED_USER', message: expect.stringContaining('disabled') });

    expect(await enableUser(admin.userId, member.userId)).toEqual({ changed: true });
    expect(await h.userByEmail('member@example.com')).toMatchObject({ banned: false, banReason: null });
    expect((await h.signIn('member@example.com', PASSWORD, new Browser())).status).toBe(200);
    expect(await enableUser(admin.userId, member.userId)).toEqual({ changed: false }); // nothing to do, nothing recorded

    const entries = await userActivity(member.userId);
    expect(entries.map((e) => e.action)).toEqual(['disable', 'enable']);
    expect(entries[0]).toMatchObject({ actorEmail: 'owner@example.com', after: { disabled: true, reason: 'Sent spam' } });
    expect(entries[0]!.summary).toBe(`Mia Member (member@example.com): account disabled (Sent spam), ${open.length} sessions ended`);
  });

  it('an admin cannot disable themselves, and a member cannot disable or enable anyone', async () => {
    await expect(disableUser(admin.userId, admin.userId)).rejects.toEqual(refusal('CANNOT_DISABLE_SELF'));
    await expect(disableUser(member.userId, admin.userId)).rejects.toEqual(refusal('NOT_ALLOWED'));
    await expect(enableUser(member.userId, admin.userId)).rejects.toEqual(refusal('NOT_ALLOWED'));
    expect(await h.userByEmail('owner@example.com')).toMatchObject({ banned: false });
    expect(await h.handle.db.select().from(activityLog)).toEqual([]);
  });
});

describe('sending the verification email again', () => {
  const send = (email: string) => h.auth.api.sendVerificationEmail({ body: { email } });

  it('mails a working link to an unverified account, records it, and is rate-limited per account', async () => {
    await h.signUp({ email: 'late@example.com', firstName: 'Lou', lastName: 'Late' }, new Browser());
    await h.verificationLinkFor('late@example.com'); // the sign-up's own mail
    const late = (await h.userByEmail('late@example.com'))!;

    expect(await resendVerificationEmail(admin.userId, late.id, send)).toEqual({ email: 'late@example.com' });
    const link = await h.verificationLinkFor('late@example.com'); // a second mail arrived
    expect((await userActivity(late.id))[0]).toMatchObject({ action: 'verification-email', actorEmail: 'owner@example.com' });

    for (let i = 1; i < RESEND_VERIFICATION_LIMIT.max; i++) await resendVerificationEmail(admin.userId, late.id, send);
    await expect(resendVerificationEmail(admin.userId, late.id, send)).rejects.toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/You can send another in \d+ minutes?/) });
    expect(await userActivity(late.id)).toHaveLength(RESEND_VERIFICATION_LIMIT.max);

    // The emailed link verifies the account.
    await h.click(link, new Browser());
    expect((await h.userByEmail('late@example.com'))?.emailVerified).toBe(true);
  });

  it('refuses a verified account, an unknown id and a member, and sends nothing', async () => {
    const sent = vi.fn(send);
    await expect(resendVerificationEmail(admin.userId, member.userId, sent)).rejects.toMatchObject({ code: 'ALREADY_VERIFIED' });
    await expect(resendVerificationEmail(admin.userId, 'nobody', sent)).rejects.toEqual(refusal('NOT_FOUND'));
    await expect(resendVerificationEmail(member.userId, admin.userId, sent)).rejects.toEqual(refusal('NOT_ADMIN'));
    expect(sent).not.toHaveBeenCalled();
  });
});

type Handler = { orThrow: (this: unknown, input: unknown) => Promise<unknown> };

async function contextFor(browser?: Browser) {
  const headers = new Headers(browser ? { cookie: browser.cookieHeader } : {});
  const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
  return { locals: found ? { user: found.user, session: found.session } : {} };
}

describe('the admin.users Actions', () => {
  it('refuse a member on every Action and change nothing', async () => {
    const ctx = await contextFor(member.browser);
    const calls: Array<[unknown, unknown]> = [
      [server.admin.users.setRole, { userId: member.userId, role: 'admin' }],
      [server.admin.users.disable, { userId: admin.userId, reason: 'x' }],
      [server.admin.users.enable, { userId: admin.userId }],
      [server.admin.users.resendVerification, { userId: admin.userId }],
    ];
    for (const [action, input] of calls) {
      await expect((action as Handler).orThrow.call(ctx, input)).rejects.toMatchObject({ type: 'AstroActionError', code: 'FORBIDDEN' });
    }
    expect(await h.userByEmail('member@example.com')).toMatchObject({ role: 'user' });
    expect(await h.userByEmail('owner@example.com')).toMatchObject({ banned: false });
    expect(await h.handle.db.select().from(activityLog)).toEqual([]);
  });

  it('refuse a visitor with 401', async () => {
    const ctx = await contextFor();
    await expect((server.admin.users.enable as unknown as Handler).orThrow.call(ctx, { userId: member.userId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('disable answers how many sessions ended; UsersError codes map to HTTP codes', async () => {
    const ctx = await contextFor(admin.browser);
    const open = await h.handle.db.select().from(sessions).where(eq(sessions.userId, member.userId));
    expect(await (server.admin.users.disable as unknown as Handler).orThrow.call(ctx, { userId: member.userId })).toEqual({ sessionsEnded: open.length });
    await expect((server.admin.users.disable as unknown as Handler).orThrow.call(ctx, { userId: admin.userId })).rejects.toMatchObject({ code: 'FORBIDDEN', message: new UsersError('CANNOT_DISABLE_SELF').message });
    await expect((server.admin.users.resendVerification as unknown as Handler).orThrow.call(ctx, { userId: admin.userId })).rejects.toMatchObject({ code: 'CONFLICT', message: 'This email address is already verified.' });
  });
});
