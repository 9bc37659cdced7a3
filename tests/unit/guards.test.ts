import { describe, expect, it } from 'vitest';
import { guardDecision, isForeignOrigin, needsSession, normalizePath, type GuardSession } from '../../src/server/guards';
import { hasSessionCookie, toRequestUser } from '../../src/server/guards/session';
import { SEED_ADMIN_ROUTES } from '../support/seed-routes';

type Who = 'visitor' | 'unverified' | 'user' | 'admin' | 'unverifiedAdmin';
const sessions: Record<Who, GuardSession | null> = {
  visitor: null,
  unverified: { role: 'user', emailVerified: false },
  user: { role: 'user', emailVerified: true },
  admin: { role: 'admin', emailVerified: true },
  unverifiedAdmin: { role: 'admin', emailVerified: false },
};

const allow = { kind: 'allow' };
const to = (path: string) => ({ kind: 'redirect', to: path });

// Seed section 2, every route of the table.
const PUBLIC = [
  '/',
  '/auth',
  '/services',
  '/articles',
  '/packages',
  '/demos',
  '/free-audit',
  '/service/lead-outreach',
  '/demo/clinic-bot',
  '/package/starter',
  '/article/some-slug',
  '/privacy',
  '/terms',
];
const ADMIN = [...SEED_ADMIN_ROUTES, '/admin'];

describe('guardDecision: seed routes × roles', () => {
  it.each(PUBLIC)('%s is open to everyone', (path) => {
    for (const who of Object.keys(sessions) as Who[]) expect(guardDecision(path, sessions[who]), who).toEqual(allow);
  });

  it('/verify-email: logged in (verified or not); visitors go to /auth', () => {
    expect(guardDecision('/verify-email', sessions.visitor)).toEqual(to('/auth'));
    expect(guardDecision('/verify-email', sessions.unverified)).toEqual(allow);
    expect(guardDecision('/verify-email', sessions.user)).toEqual(allow);
    expect(guardDecision('/verify-email', sessions.admin)).toEqual(allow);
  });

  it('/dashboard: logged in and verified; admins are let in too (seed: not stated)', () => {
    expect(guardDecision('/dashboard', sessions.visitor)).toEqual(to('/auth'));
    expect(guardDecision('/dashboard', sessions.unverified)).toEqual(to('/verify-email'));
    expect(guardDecision('/dashboard', sessions.unverifiedAdmin)).toEqual(to('/verify-email'));
    expect(guardDecision('/dashboard', sessions.user)).toEqual(allow);
    expect(guardDecision('/dashboard', sessions.admin)).toEqual(allow);
  });

  it.each(ADMIN)('%s: admin only and verified; a member goes to /dashboard', (path) => {
    expect(guardDecision(path, sessions.visitor)).toEqual(to('/auth'));
    expect(guardDecision(path, sessions.unverified)).toEqual(to('/verify-email'));
    expect(guardDecision(path, sessions.unverifiedAdmin)).toEqual(to('/verify-email'));
    expect(guardDecision(path, sessions.user)).toEqual(to('/dashboard'));
    expect(guardDecision(path, sessions.admin)).toEqual(allow);
  });

  it('the guard cannot be sidestepped by spelling a path differently', () => {
    for (const path of ['/ADMIN/users', '/%61dmin/users', '//admin//users', '/admin/users/', '/Dashboard', '/dashboard/']) {
      expect(guardDecision(path, sessions.visitor), path).toEqual(to('/auth'));
    }
    expect(guardDecision('/admin/users/', sessions.user)).toEqual(to('/dashboard'));
    // Lookalikes that are not admin routes stay public.
    expect(guardDecision('/administrator', sessions.visitor)).toEqual(allow);
    expect(guardDecision('/dashboards', sessions.visitor)).toEqual(allow);
  });
});

describe('guardDecision: API routes and Actions answer JSON, never redirects', () => {
  it('/api/prices: 401 visitor, 403 unverified, allowed for verified members and admins', () => {
    expect(guardDecision('/api/prices', sessions.visitor)).toEqual({
      kind: 'deny',
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'No user logged in',
    });
    expect(guardDecision('/api/prices', sessions.unverified)).toMatchObject({ kind: 'deny', status: 403, code: 'FORBIDDEN' });
    expect(guardDecision('/api/prices', sessions.user)).toEqual(allow);
    expect(guardDecision('/api/prices', sessions.admin)).toEqual(allow);
  });

  it('Actions need a verified member; finer rules (admin) are the action’s own', () => {
    for (const action of ['/_actions/account.updateProfile', '/_actions/users.promote', '/_actions/unknown.thing']) {
      expect(guardDecision(action, sessions.visitor)).toMatchObject({ kind: 'deny', status: 401, message: 'No user logged in' });
      expect(guardDecision(action, sessions.unverified)).toMatchObject({ kind: 'deny', status: 403 });
      expect(guardDecision(action, sessions.user)).toEqual(allow);
      expect(guardDecision(action, sessions.admin)).toEqual(allow);
    }
  });

  it('/api/admin/…: a verified admin only; 401 for a visitor, 403 for anyone else, however it is spelt', () => {
    for (const path of ['/api/admin/content/export', '/api/admin/media', '/api/admin/media/0123', '/api/admin/content/import', '/api/admin', '/API/Admin//content/import/', '/api/%61dmin/x']) {
      expect(guardDecision(path, sessions.visitor), path).toMatchObject({ kind: 'deny', status: 401, code: 'UNAUTHORIZED' });
      expect(guardDecision(path, sessions.unverified), path).toMatchObject({ kind: 'deny', status: 403, message: 'Email not verified yet' });
      expect(guardDecision(path, sessions.unverifiedAdmin), path).toMatchObject({ kind: 'deny', status: 403, message: 'Email not verified yet' });
      expect(guardDecision(path, sessions.user), path).toMatchObject({ kind: 'deny', status: 403, code: 'FORBIDDEN' });
      expect(guardDecision(path, sessions.admin), path).toEqual(allow);
      expect(needsSession(path), path).toBe(true);
    }
    // A lookalike is not under /api/admin.
    expect(guardDecision('/api/administrator', sessions.visitor)).toEqual(allow);
  });

  it('other API routes are left to their own handlers (auth endpoints are public)', () => {
    expect(guardDecision('/api/auth/get-session', null)).toEqual(allow);
    expect(guardDecision('/api/auth/sign-in/email', null)).toEqual(allow);
  });
});

describe('when the middleware reads the session', () => {
  it('only on guarded paths and Actions', () => {
    for (const path of ['/dashboard', '/admin/seo', '/verify-email', '/api/prices', '/_actions/users.promote']) {
      expect(needsSession(path), path).toBe(true);
    }
    for (const path of PUBLIC) expect(needsSession(path), path).toBe(false);
    expect(needsSession('/api/auth/get-session')).toBe(false);
  });

  it('only when the session cookie is present', () => {
    expect(hasSessionCookie(null)).toBe(false);
    expect(hasSessionCookie('theme=dark')).toBe(false);
    expect(hasSessionCookie('agency.session_token=')).toBe(false);
    expect(hasSessionCookie('agency.session_token=abc.def')).toBe(true);
    expect(hasSessionCookie('a=1; __Secure-agency.session_token=abc')).toBe(true);
    expect(hasSessionCookie('xagency.session_token=abc')).toBe(false);
  });
});

describe('helpers', () => {
  it('normalizePath', () => {
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('/Admin//Users/')).toBe('/admin/users');
    expect(normalizePath('/%E0%A4%A')).toBe('/%e0%a4%a');
  });

  it('toRequestUser keeps only known roles', () => {
    expect(toRequestUser({ id: 'u1', email: 'a@b.c', role: 'superuser', emailVerified: 'yes' })).toMatchObject({
      role: 'user',
      emailVerified: false,
      firstName: '',
    });
    expect(toRequestUser({ id: 'u1', email: 'a@b.c', role: 'admin', emailVerified: true }).role).toBe('admin');
  });

  it('isForeignOrigin refuses state-changing requests from another site only', () => {
    const site = ['http://localhost:4321', 'http://127.0.0.1:4321'];
    expect(isForeignOrigin('POST', 'https://evil.example', site)).toBe(true);
    expect(isForeignOrigin('POST', 'http://127.0.0.1:4321', site)).toBe(false);
    expect(isForeignOrigin('POST', 'http://localhost:4321', site)).toBe(false);
    expect(isForeignOrigin('POST', 'null', site)).toBe(true);
    expect(isForeignOrigin('POST', null, site)).toBe(false);
    expect(isForeignOrigin('GET', 'https://evil.example', site)).toBe(false);
  });

  it('isForeignOrigin believes the browser when it says a write is cross-site, whatever Origin says', () => {
    const site = ['http://localhost:4321'];
    expect(isForeignOrigin('POST', 'http://localhost:4321', site, 'cross-site')).toBe(true);
    expect(isForeignOrigin('POST', null, site, 'Cross-Site')).toBe(true);
    expect(isForeignOrigin('POST', 'http://localhost:4321', site, 'same-origin')).toBe(false);
    expect(isForeignOrigin('POST', 'http://localhost:4321', site, 'none')).toBe(false);
    expect(isForeignOrigin('GET', null, site, 'cross-site')).toBe(false); // links and images from other sites
  });

  it('isForeignOrigin takes Origin null from our own no-referrer page only when the browser vouches for it', () => {
    const site = ['http://localhost:4321'];
    // The unsubscribe or report page (Referrer-Policy: no-referrer) posting to itself in Chromium or Firefox.
    expect(isForeignOrigin('POST', 'null', site, 'same-origin')).toBe(false);
    // A sandboxed frame or a data: page: an opaque origin, never same-origin.
    expect(isForeignOrigin('POST', 'null', site, 'cross-site')).toBe(true);
    expect(isForeignOrigin('POST', 'null', site, 'same-site')).toBe(true);
    expect(isForeignOrigin('POST', 'null', site)).toBe(true);
    // A route authorized by the token in its address also takes it from a browser without Sec-Fetch-Site.
    expect(isForeignOrigin('POST', 'null', site, null, { tokenRoute: true })).toBe(false);
    expect(isForeignOrigin('POST', 'null', site, 'cross-site', { tokenRoute: true })).toBe(true);
    expect(isForeignOrigin('POST', 'https://evil.example', site, null, { tokenRoute: true })).toBe(true);
  });
});
