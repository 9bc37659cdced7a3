import { describe, expect, it } from 'vitest';
import { applySecurityHeaders, cacheControlFor, isPrivatePath } from '../../src/server/security-headers';

describe('security headers', () => {
  it("extends Astro's hashed page policy with the header-only directives, without 'unsafe-inline' scripts", () => {
    const headers = new Headers({ 'Content-Security-Policy': "default-src 'self'; script-src 'self' 'sha256-abc';" });
    applySecurityHeaders(headers, { https: false });
    const csp = headers.get('Content-Security-Policy')!;
    expect(csp).toContain("script-src 'self' 'sha256-abc'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toContain(';;');
  });

  it('adds the header-only directives once, even when applied twice (cache replay)', () => {
    const headers = new Headers();
    applySecurityHeaders(headers, { https: false });
    applySecurityHeaders(headers, { https: false });
    expect(headers.get('Content-Security-Policy')!.match(/frame-ancestors/g)).toHaveLength(1);
  });

  it('sets nosniff, referrer and permissions policies, and HSTS only over HTTPS', () => {
    const http = new Headers();
    applySecurityHeaders(http, { https: false });
    expect(http.get('X-Content-Type-Options')).toBe('nosniff');
    expect(http.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin');
    expect(http.get('Permissions-Policy')).toContain('camera=()');
    expect(http.get('X-Frame-Options')).toBe('DENY');
    expect(http.has('Strict-Transport-Security')).toBe(false);
    const https = new Headers();
    applySecurityHeaders(https, { https: true });
    expect(https.get('Strict-Transport-Security')).toMatch(/max-age=\d{8}/);
  });
});

describe('private paths', () => {
  it('covers the admin, dashboard, auth, verification and API areas and nothing public', () => {
    for (const p of ['/admin', '/admin/users/1', '/dashboard', '/auth', '/verify-email', '/api/prices', '/API/x', '/audit-report/abc']) {
      expect(isPrivatePath(p), p).toBe(true);
    }
    for (const p of ['/', '/services', '/articles', '/article/api-tips', '/authors', '/administration-guide']) {
      expect(isPrivatePath(p), p).toBe(false);
    }
  });

  it('are private, no-store whatever the route set; public routes keep their own choice', () => {
    expect(cacheControlFor('/dashboard', 'public, max-age=600')).toBe('private, no-store');
    expect(cacheControlFor('/api/prices', null)).toBe('private, no-store');
    expect(cacheControlFor('/robots.txt', 'public, max-age=3600')).toBe('public, max-age=3600');
    expect(cacheControlFor('/', null)).toBe('public, max-age=0, must-revalidate');
  });
});
