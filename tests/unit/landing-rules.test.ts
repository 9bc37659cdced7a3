import { describe, expect, it } from 'vitest';
import { landingTitle, listSentence, viewAllLink } from '../../src/features/landing/labels';
import { nextIndex } from '../../src/features/landing/rotate';
import { REDIRECT_AFTER_LOGIN_KEY, redirectPathFor, rememberPathBeforeLogin } from '../../src/features/navbar/login-redirect';
import { resolveSiteContent } from '../../src/shared/site-content';

describe('View All link on the landing previews', () => {
  it('is hidden with 4 or fewer items and shows the total above 4', () => {
    expect(viewAllLink('services', 0)).toBeNull();
    expect(viewAllLink('services', 4)).toBeNull();
    expect(viewAllLink('services', 5)).toEqual({ href: '/services', label: 'View All Services (5)' });
    expect(viewAllLink('services', 6)?.label).toBe('View All Services (6)');
  });
  it('points each kind at its list page', () => {
    expect(viewAllLink('packages', 7)).toEqual({ href: '/packages', label: 'View All Packages (7)' });
    expect(viewAllLink('demos', 9)).toEqual({ href: '/demos', label: 'View All Demos (9)' });
    expect(viewAllLink('articles', 12)).toEqual({ href: '/articles', label: 'View All Articles (12)' });
  });
});

describe('sentence read to screen readers instead of the rotating phrase', () => {
  it('lists every phrase', () => {
    expect(listSentence(['lead outreach'])).toBe('lead outreach');
    expect(listSentence(['a', 'b'])).toBe('a and b');
    expect(listSentence(['lead outreach', 'lead nurturing', 'appointment reminders'])).toBe(
      'lead outreach, lead nurturing and appointment reminders',
    );
  });
});

describe('rotation', () => {
  it('moves to the next phrase and wraps around to the first', () => {
    expect(nextIndex(0, 4)).toBe(1);
    expect(nextIndex(3, 4)).toBe(0);
    expect(nextIndex(0, 1)).toBe(0);
  });
});

describe('landing page title', () => {
  it('is the site name with the tagline when that fits in 60 characters', () => {
    const site = resolveSiteContent({ siteName: 'Autoflow', tagline: 'AI automation for clinics' });
    expect(landingTitle(site)).toBe('Autoflow | AI automation for clinics');
  });
  it('falls back to the hero sentence, then the name alone, rather than a title cut with "..."', () => {
    const longTagline = resolveSiteContent({ siteName: 'Autoflow Agency', tagline: 'x'.repeat(80) });
    expect(landingTitle(longTagline)).toBe('Autoflow Agency | We automate your lead outreach');
    const longEverything = resolveSiteContent({ siteName: 'N'.repeat(50), tagline: 'x'.repeat(80) });
    expect(landingTitle(longEverything)).toBe('N'.repeat(50));
  });
});

describe('Log in remembers the page to return to', () => {
  it('stores the current path and query under redirectAfterLogin', () => {
    const stored = new Map<string, string>();
    rememberPathBeforeLogin({ setItem: (k, v) => void stored.set(k, v) }, { pathname: '/packages', search: '?x=1' });
    expect(REDIRECT_AFTER_LOGIN_KEY).toBe('redirectAfterLogin');
    expect(stored.get('redirectAfterLogin')).toBe('/packages?x=1');
  });
  it('never sends the user back to the auth pages', () => {
    expect(redirectPathFor({ pathname: '/auth', search: '' })).toBe('/');
    expect(redirectPathFor({ pathname: '/verify-email', search: '' })).toBe('/');
    expect(redirectPathFor({ pathname: '/', search: '' })).toBe('/');
  });
  it('still lets the user log in when storage is unavailable', () => {
    expect(() =>
      rememberPathBeforeLogin(
        {
          setItem: () => {
            throw new Error('SecurityError');
          },
        },
        { pathname: '/demos', search: '' },
      ),
    ).not.toThrow();
  });
});
