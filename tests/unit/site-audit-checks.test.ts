import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_COUNT, CHECK_IDS, runChecks } from '../../src/server/modules/site-audit/checks';
import { LEADS_CHECKS } from '../../src/server/modules/site-audit/checks/leads';
import { LINKS_CHECKS } from '../../src/server/modules/site-audit/checks/links';
import { MOBILE_CHECKS } from '../../src/server/modules/site-audit/checks/mobile';
import { nestingCut } from '../../src/server/modules/site-audit/checks/nesting';
import type { CheckResult } from '../../src/server/modules/site-audit/findings';
import type {
  CheckedLink,
  FetchedPage,
  FetchedResource,
  FetchedResponse,
  FetchedTextFile,
  ResourceKind,
  SiteSnapshot,
} from '../../src/server/modules/site-audit/snapshot';
import { SEARCH_CHECKS } from '../../src/server/modules/site-audit/checks/search';
import { SECURITY_CHECKS } from '../../src/server/modules/site-audit/checks/security';
import { SPEED_CHECKS } from '../../src/server/modules/site-audit/checks/speed';
import { countWords, cutText, formatBytes, formatDuration, formatMs, limitLines, quote } from '../../src/server/modules/site-audit/text';
import { REPORT_LIMITS } from '../../src/shared/schemas/audit-report';
import { contradictions } from '../support/audit-verdict-pairs';

const SITE = 'https://smile-dental.example';
const fixture = (name: string) => readFileSync(new URL(`../fixtures/site-audit/${name}`, import.meta.url), 'utf8');

const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** Headers of a well-run https site. */
const GOOD_HEADERS = {
  ...HTML,
  'content-encoding': 'br',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'content-security-policy': "default-src 'self'; script-src 'self' 'nonce-r4nd0m' https://embed.tawk.to; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

function response(url: string, extra: Partial<FetchedResponse> = {}): FetchedResponse {
  return {
    requestedUrl: url,
    url,
    status: 200,
    headers: {},
    redirects: [],
    timeToFirstByteMs: 120,
    totalMs: 200,
    transferBytes: 1_000,
    bodyBytes: 1_000,
    truncated: false,
    ...extra,
  };
}

function page(path: string, html: string | undefined, extra: Partial<FetchedPage> = {}): FetchedPage {
  const bytes = html === undefined ? 0 : Buffer.byteLength(html);
  return { ...response(`${SITE}${path}`, { headers: GOOD_HEADERS, bodyBytes: bytes, transferBytes: Math.round(bytes / 4) }), html, depth: path === '/' ? 0 : 1, ...extra };
}

function resource(path: string, kind: ResourceKind, bytes: number, headers: Record<string, string>, extra: Partial<FetchedResource> = {}): FetchedResource {
  const url = path.startsWith('http') ? path : `${SITE}${path}`;
  return { ...response(url, { headers, bodyBytes: bytes, transferBytes: bytes }), kind, pageUrl: `${SITE}/`, inHead: false, ...extra };
}

function textFile(path: string, text: string | undefined, extra: Partial<FetchedTextFile> = {}): FetchedTextFile {
  return { ...response(`${SITE}${path}`, { headers: { 'content-type': 'text/plain' } }), text, ...extra };
}

const link = (path: string, status: number, from = '/'): CheckedLink => ({ pageUrl: `${SITE}${from}`, url: `${SITE}${path}`, status });

/** A snapshot of the site whose home page is `home`; everything else from `extra` (nothing fetched by default). */
function snapshotOf(home: FetchedPage, extra: Partial<SiteSnapshot> = {}): SiteSnapshot {
  return {
    startUrl: `${SITE}/`,
    startedAt: '2026-11-26T10:00:00.000Z',
    finishedAt: '2026-11-26T10:00:20.000Z',
    home,
    pages: [home],
    resources: [],
    resourcesSeen: 0,
    links: [],
    skipped: [],
    ...extra,
  };
}

const CACHED = { 'cache-control': 'public, max-age=31536000, immutable' };

/** The good fixture as a well-served site: every file compressed and cached, robots, sitemap, redirects. */
function goodSnapshot(): SiteSnapshot {
  const home = page('/', fixture('good.html'), { timeToFirstByteMs: 180 });
  const resources = [
    resource('/css/site.css', 'style', 24_000, { 'content-type': 'text/css', 'content-encoding': 'br', ...CACHED }, { transferBytes: 6_000, inHead: true }),
    resource('/js/site.js', 'script', 40_000, { 'content-type': 'text/javascript', 'content-encoding': 'gzip', ...CACHED }, { transferBytes: 12_000, inHead: true }),
    resource('/img/logo.svg', 'image', 4_000, { 'content-type': 'image/svg+xml', ...CACHED }),
    resource('/img/team.webp', 'image', 140_000, { 'content-type': 'image/webp', ...CACHED }),
    resource('/img/stars.png', 'image', 3_000, { 'content-type': 'image/png', ...CACHED }),
    resource('https://embed.tawk.to/abc123/default', 'script', 90_000, { 'content-type': 'text/javascript' }),
  ];
  return snapshotOf(home, {
    resources,
    resourcesSeen: 7,
    links: [link('/treatments', 200), link('/about', 200), link('/contact', 200), link('/contact/send', 405)],
    robotsTxt: textFile('/robots.txt', `User-agent: *\nDisallow: /admin/\n\nSitemap: ${SITE}/sitemap.xml\n`),
    sitemapXml: textFile('/sitemap.xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${SITE}/</loc></url><url><loc>${SITE}/about</loc></url></urlset>`, {
      headers: { 'content-type': 'application/xml' },
    }),
    httpVersion: response('http://smile-dental.example/', { url: `${SITE}/`, redirects: [{ url: 'http://smile-dental.example/', status: 301 }] }),
    lighthouse: { performance: 96, accessibility: 98, largestContentfulPaintMs: 1_400, cumulativeLayoutShift: 0.02, totalBlockingTimeMs: 30 },
  });
}

/** The defects fixture on a neglected server: no headers, nothing compressed or cached, a 2.6 MB photo. */
function defectsSnapshot(): SiteSnapshot {
  const home = page('/', fixture('defects.html'), { headers: HTML, timeToFirstByteMs: 2_300, bodyBytes: 620 * 1024, transferBytes: 620 * 1024 });
  const about = page('/about', '<html><body><p>About Bob</p><a href="/old-page">Old</a></body></html>', { headers: HTML });
  return snapshotOf(home, {
    pages: [home, about],
    resources: [
      resource('/js/slider.js', 'script', 80_000, { 'content-type': 'application/javascript' }, { inHead: true }),
      resource('/img/a.jpg', 'image', 2_600_000, { 'content-type': 'image/jpeg' }),
      resource('/img/b.jpg', 'image', 120_000, { 'content-type': 'image/jpeg', 'last-modified': 'Tue, 01 Jan 2019 00:00:00 GMT' }),
      resource('/img/c.jpg', 'image', 30_000, { 'content-type': 'image/jpeg', 'cache-control': 'max-age=3600' }),
    ],
    resourcesSeen: 6,
    links: [link('/about', 200), link('/old-page', 404, '/about'), link('/gone', 0, '/'), link('https://elsewhere.example/x', 500)],
    robotsTxt: textFile('/robots.txt', '# built by the agency\nUser-agent: Googlebot\nDisallow: /tmp\n\nUser-agent: *\nDisallow: /\n'),
    sitemapXml: textFile('/sitemap.xml', 'Not found', { status: 404, headers: HTML }),
    httpVersion: response('http://smile-dental.example/', { headers: HTML }),
    skipped: [{ check: 'Lighthouse', reason: 'no Chromium configured' }],
  });
}

const byId = (checks: CheckResult[], id: string): CheckResult => {
  const check = checks.find((item) => item.id === id);
  if (!check) throw new Error(`no check ${id}`);
  return check;
};

const statuses = (checks: CheckResult[]) => Object.fromEntries(checks.map((check) => [check.id, check.status]));
const evidenceOf = (checks: CheckResult[], id: string) => byId(checks, id).evidence.join('\n');
const UNEXPECTED = /stopped on something unexpected/;

describe('site audit checks on a good small-business site', () => {
  const checks = runChecks(goodSnapshot());

  it('passes every check', () => {
    const notPassing = checks.filter((check) => check.status !== 'pass').map((check) => `${check.id}: ${check.status} ${check.evidence.join(' | ')}`);
    expect(notPassing).toEqual([]);
  });

  it('returns every check once, in the fixed order, with texts and no fix topic on a pass', () => {
    expect(checks.map((check) => check.id)).toEqual(CHECK_IDS);
    expect(new Set(CHECK_IDS).size).toBe(CHECK_IDS.length);
    for (const check of checks) {
      expect(check.title && check.why && check.fix, check.id).toBeTruthy();
      expect(check.evidence.length, check.id).toBeGreaterThan(0);
      expect(check.topic, check.id).toBeUndefined();
    }
  });

  it('names what it found and where', () => {
    expect(evidenceOf(checks, 'contact-form')).toBe('Form with an email field on the home page (sends to /contact/send)');
    expect(evidenceOf(checks, 'booking-link')).toContain("Calendly on the home page: <a href> 'https://calendly.com/smile-dental/checkup'");
    expect(evidenceOf(checks, 'chat-widget')).toContain('tawk.to');
    expect(evidenceOf(checks, 'click-to-call')).toContain("'tel:+441134960000'");
    expect(evidenceOf(checks, 'cta-above-fold')).toMatch(/^'Book a free consultation' near the top of the home page \(after about \d+ words\), leading to https:\/\/calendly\.com\/smile-dental\/checkup$/);
    expect(evidenceOf(checks, 'lead-magnet')).toContain('Mailchimp');
    expect(evidenceOf(checks, 'reviews')).toContain('review structured data');
    expect(evidenceOf(checks, 'structured-data')).toBe("Dentist 'Smile Dental' with name, address and telephone");
    expect(evidenceOf(checks, 'title')).toBe("Title: 'Family Dentist in Leeds | Smile Dental' (38 characters)");
    expect(evidenceOf(checks, 'hsts')).toContain('(1 year)');
    expect(evidenceOf(checks, 'http-redirects')).toBe('http://smile-dental.example/ → https://smile-dental.example/ (301)');
    expect(evidenceOf(checks, 'page-weight')).toContain('6 of 7 referenced files fetched; the rest are not counted');
    expect(evidenceOf(checks, 'image-alt')).toBe('3 of 3 images have alt text');
    expect(evidenceOf(checks, 'sitemap')).toContain('lists 2 addresses');
    expect(evidenceOf(checks, 'broken-links')).toBe('All 4 links of the site checked answered');
  });
});

describe('site audit checks on a page with every defect', () => {
  const checks = runChecks(defectsSnapshot());

  it('fails or warns where it should', () => {
    expect(statuses(checks)).toEqual({
      reachable: 'pass',
      https: 'pass',
      'http-redirects': 'fail',
      hsts: 'fail',
      csp: 'fail',
      'x-content-type-options': 'warn',
      'frame-protection': 'warn',
      'referrer-policy': 'warn',
      'mixed-content': 'fail',
      ttfb: 'fail',
      'html-size': 'fail',
      'page-weight': 'warn',
      compression: 'fail',
      'cache-headers': 'fail',
      'large-images': 'fail',
      'image-formats': 'warn',
      'render-blocking': 'warn',
      lighthouse: 'skipped',
      'lighthouse-accessibility': 'skipped',
      title: 'fail',
      'meta-description': 'fail',
      h1: 'fail',
      canonical: 'warn',
      noindex: 'fail',
      'robots-txt': 'fail',
      sitemap: 'warn',
      lang: 'warn',
      'image-alt': 'fail',
      'open-graph': 'warn',
      'twitter-card': 'warn',
      'structured-data': 'warn',
      favicon: 'warn',
      viewport: 'fail',
      'font-size': 'skipped',
      'tap-targets': 'skipped',
      'contact-form': 'fail',
      'booking-link': 'fail',
      'chat-widget': 'fail',
      'click-to-call': 'warn',
      'email-link': 'warn',
      reviews: 'warn',
      'cta-above-fold': 'warn',
      'lead-magnet': 'warn',
      'broken-links': 'fail',
    });
  });

  it('attaches the agency topic to what needs fixing', () => {
    expect(byId(checks, 'contact-form').topic).toBe('lead-capture');
    expect(byId(checks, 'booking-link').topic).toBe('booking');
    expect(byId(checks, 'chat-widget').topic).toBe('chat');
    expect(byId(checks, 'reviews').topic).toBe('reviews');
    expect(byId(checks, 'lead-magnet').topic).toBe('newsletter');
    expect(byId(checks, 'ttfb').topic).toBe('website-speed');
    expect(byId(checks, 'title').topic).toBe('seo');
    expect(byId(checks, 'hsts').topic).toBe('website-care');
    expect(byId(checks, 'lighthouse').topic).toBeUndefined();
  });

  it('says specifically what it saw', () => {
    expect(evidenceOf(checks, 'hsts')).toBe('No Strict-Transport-Security header');
    expect(evidenceOf(checks, 'http-redirects')).toBe('http://smile-dental.example/ answered 200 OK at http://smile-dental.example/ without sending visitors to https');
    expect(evidenceOf(checks, 'mixed-content')).toContain("<script> 'http://cdn.old-host.example/jquery.js' (blocked by browsers)");
    expect(evidenceOf(checks, 'mixed-content')).toContain("<img> 'http://img.old-host.example/hero.jpg'");
    expect(evidenceOf(checks, 'ttfb')).toBe('The home page started answering after 2.3 s (under 600 ms is good)');
    expect(evidenceOf(checks, 'html-size')).toBe("The home page's HTML is 620 KB (under 100 KB is good)");
    expect(byId(checks, 'page-weight').evidence).toEqual([
      'The home page downloads at least 3.3 MB (under 1.5 MB is good): HTML 620 KB, 1 script 78 KB, 3 images 2.6 MB',
      '4 of 6 referenced files fetched; the rest are not counted',
    ]);
    expect(evidenceOf(checks, 'large-images')).toBe('Over 300 KB: 1 of 3 pictures\n2.5 MB /img/a.jpg');
    expect(evidenceOf(checks, 'image-formats')).toContain('117 KB image/jpeg /img/b.jpg');
    expect(evidenceOf(checks, 'cache-headers')).toContain('/img/c.jpg: Cache-Control: \'max-age=3600\' (1 hour), not even an ETag or Last-Modified');
    expect(evidenceOf(checks, 'cache-headers')).toContain('/img/b.jpg: no Cache-Control, can be revalidated');
    expect(evidenceOf(checks, 'render-blocking')).toContain("'/js/slider.js'");
    expect(evidenceOf(checks, 'lighthouse')).toBe('Lighthouse was not run: no Chromium configured');
    expect(evidenceOf(checks, 'lighthouse-accessibility')).toBe('Lighthouse was not run: no Chromium configured');
    expect(evidenceOf(checks, 'noindex')).toContain(`<meta name="robots" content='noindex, nofollow'>`);
    expect(evidenceOf(checks, 'robots-txt')).toContain('User-agent: * / Disallow: /');
    expect(evidenceOf(checks, 'image-alt')).toBe("1 of 4 images have alt text\nWithout alt:\n'http://img.old-host.example/hero.jpg'\n'/img/a.jpg'\n'/img/b.jpg'");
    expect(evidenceOf(checks, 'structured-data')).toBe("Organization 'Bob's Coaching' without address, telephone");
    expect(evidenceOf(checks, 'viewport')).toContain('A fixed width');
    for (const id of ['font-size', 'tap-targets']) {
      expect(byId(checks, id).evidence).toEqual(['Not judged: the viewport tag sets a fixed width, so phones shrink the whole page to fit it (see “Made to fit phone screens”)']);
    }
    expect(evidenceOf(checks, 'click-to-call')).toContain("The number '0113 496 0123' on the home page is text");
    expect(evidenceOf(checks, 'contact-form')).toBe('No <form> with an email field on the 2 pages checked');
    expect(byId(checks, 'broken-links').evidence).toEqual(['Broken: 2 of 3 links checked', '404 Not Found /old-page (linked from /about)', 'no answer /gone (linked from /)']);
  });

  it('says when the pages had more links than an audit checks', () => {
    const snapshot = defectsSnapshot();
    const withMore = runChecks({ ...snapshot, linksSeen: snapshot.links.length + 40 });
    expect(byId(withMore, 'broken-links').evidence.at(-1)).toBe(`${snapshot.links.length + 40} links found on the pages read; the first ${snapshot.links.length} were checked`);
    expect(byId(runChecks({ ...snapshot, linksSeen: snapshot.links.length }), 'broken-links').evidence).toEqual(byId(checks, 'broken-links').evidence);
  });

  it('names where a link redirected when the check did not follow it: broken when nobody could follow, "not followed" when visitors may', () => {
    const redirected = (path: string, to: string, code: string, message: string): CheckedLink => ({ ...link(path, 0), failure: { code, message } as CheckedLink['failure'], redirectedTo: to });
    const home = page('/', '<html><body><a href="/to-metadata">A</a><a href="/to-port">B</a><a href="/about">C</a></body></html>', { headers: HTML });
    const metadata = redirected('/to-metadata', 'http://169.254.169.254/latest/meta-data/', 'address-not-allowed', 'not a public address');
    const port = redirected('/to-port', `${SITE}:8080/shop`, 'port-not-allowed', 'port 8080 is not allowed');
    const both = byId(runChecks(snapshotOf(home, { links: [metadata, port, link('/about', 200)] })), 'broken-links');
    expect(both.status).toBe('fail');
    expect(both.evidence).toEqual([
      'Broken: 1 of 3 links checked',
      'redirects to http://169.254.169.254/latest/meta-data/ (refused: not a public address) /to-metadata (linked from /)',
      'Not followed (may work for visitors): 1 of 3 links',
      `redirects to ${SITE}:8080/shop (refused: a port the check does not ask) /to-port (linked from /)`,
    ]);
    const portOnly = byId(runChecks(snapshotOf(home, { links: [port, link('/about', 200)] })), 'broken-links');
    expect(portOnly.status).toBe('pass');
    expect(portOnly.evidence[0]).toBe('No broken link: 1 of 2 links checked answered');
    // A redirect that did answer is the page it led to: not a problem, and not "no answer" either.
    expect(byId(runChecks(snapshotOf(home, { links: [link('/about', 200)] })), 'broken-links').evidence).toEqual(['The one link of the site checked answered']);
  });
});

describe('single checks', () => {
  const good = () => goodSnapshot();
  const withHomeHeaders = (headers: Record<string, string>) => {
    const snapshot = good();
    snapshot.home = { ...snapshot.home, headers: { ...GOOD_HEADERS, ...headers } };
    return runChecks({ ...snapshot, pages: [snapshot.home] });
  };
  const withHomeHtml = (html: string) => runChecks(snapshotOf(page('/', html)));

  it('warns on a short HSTS lifetime, saying how short', () => {
    const check = byId(withHomeHeaders({ 'strict-transport-security': 'max-age=300' }), 'hsts');
    expect(check.status).toBe('warn');
    expect(check.evidence).toEqual(['Strict-Transport-Security: max-age=300 (5 minutes; at least 180 days expected)']);
  });

  it("warns on script-src 'unsafe-inline' without a nonce or hash, and accepts frame-ancestors or X-Frame-Options", () => {
    const checks = withHomeHeaders({ 'content-security-policy': "default-src 'self' 'unsafe-inline'", 'x-frame-options': 'SAMEORIGIN', 'referrer-policy': 'unsafe-url' });
    expect(byId(checks, 'csp').status).toBe('warn');
    expect(byId(checks, 'csp').fix).toContain('nonces');
    expect(byId(checks, 'frame-protection').evidence).toEqual(['X-Frame-Options: SAMEORIGIN']);
    expect(byId(checks, 'referrer-policy').status).toBe('warn');
    expect(byId(withHomeHeaders({ 'content-security-policy': "script-src 'unsafe-inline' 'sha256-abc'" }), 'csp').status).toBe('pass');
  });

  it('cuts an over-long title the way a search result does', () => {
    const long = 'Smile Dental – gentle family dentistry, implants and Invisalign in Leeds city centre';
    const check = byId(withHomeHtml(`<title>${long}</title>`), 'title');
    expect(check.status).toBe('warn');
    expect(check.evidence[1]).toBe(`A search result shows: '${long.slice(0, 60).trimEnd()}…'`);
  });

  it('warns on several H1 headings and lists them; judges viewport zoom limits', () => {
    const checks = withHomeHtml('<meta name="viewport" content="width=device-width, maximum-scale=1"><h1>One</h1><h1>Two</h1>');
    expect(byId(checks, 'h1').status).toBe('warn');
    expect(byId(checks, 'h1').evidence).toEqual(['2 <h1> headings on the home page:', "'One'", "'Two'"]);
    expect(byId(checks, 'viewport').status).toBe('warn');
    expect(byId(checks, 'viewport').evidence[1]).toContain('Zooming is turned off');
  });

  it('finds a business inside @graph, accepts subtypes and names missing fields', () => {
    const block = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
    const spa = withHomeHtml(block({ '@graph': [{ '@type': ['HealthAndBeautyBusiness'], name: 'Glow', telephone: '+44 1' }] }));
    expect(byId(spa, 'structured-data').status).toBe('warn');
    expect(byId(spa, 'structured-data').evidence).toEqual(["HealthAndBeautyBusiness 'Glow' without address"]);
    const clinic = withHomeHtml(block({ '@type': 'https://schema.org/MedicalClinic', name: 'Clinic', address: 'Leeds', telephone: '1' }));
    expect(byId(clinic, 'structured-data').status).toBe('pass');
    expect(byId(withHomeHtml(block({ '@type': 'WebPage' })), 'structured-data').evidence).toEqual(['1 JSON-LD block, but no Organization or LocalBusiness among them']);
  });

  it('judges robots.txt by the group for every crawler and accepts a sitemap named in robots.txt', () => {
    const snapshot = good();
    snapshot.robotsTxt = textFile('/robots.txt', 'User-agent: BadBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n\nSitemap: https://cdn.example/sitemaps/index.xml\n');
    snapshot.sitemapXml = textFile('/sitemap.xml', '<html>not here</html>', { status: 404 });
    const checks = runChecks(snapshot);
    expect(byId(checks, 'robots-txt').status).toBe('pass');
    expect(byId(checks, 'sitemap').status).toBe('pass');
    expect(evidenceOf(checks, 'sitemap')).toBe("robots.txt names a sitemap at 'https://cdn.example/sitemaps/index.xml' (not fetched in this audit)");
    snapshot.robotsTxt = textFile('/robots.txt', '<!doctype html><title>Home</title>', { headers: HTML });
    expect(byId(runChecks(snapshot), 'robots-txt').evidence[0]).toContain('web page instead of a text file');
  });

  it('only warns about http pictures on an https page, and accepts /favicon.ico without a link tag', () => {
    const snapshot = snapshotOf(page('/', '<body><img src="http://cdn.example/a.png" alt="A"></body>'), {
      resources: [resource('/favicon.ico', 'image', 1_000, { 'content-type': 'image/x-icon' })],
    });
    const checks = runChecks(snapshot);
    expect(byId(checks, 'mixed-content')).toMatchObject({ status: 'warn', evidence: ['1 file loaded over plain http on the home page:', "<img> 'http://cdn.example/a.png'"] });
    expect(byId(checks, 'favicon')).toMatchObject({ status: 'pass', evidence: [`${SITE}/favicon.ico answers (no <link rel="icon">; browsers look there by default)`] });
  });

  it('skips the Lighthouse checks with no reason given, and grades speed and accessibility apart', () => {
    const snapshot = good();
    const measured = runChecks({ ...snapshot, lighthouse: { performance: 62, accessibility: 96, largestContentfulPaintMs: 3_120, cumulativeLayoutShift: 0.04, totalBlockingTimeMs: 250 } });
    expect(byId(measured, 'lighthouse')).toMatchObject({
      status: 'warn',
      category: 'speed',
      evidence: ['Performance 62 of 100 on a phone (90 or more is good)', 'Core Web Vitals: largest content shown after 3.1 s, layout shift 0.04, blocked for 250 ms'],
    });
    expect(byId(measured, 'lighthouse-accessibility')).toMatchObject({ status: 'pass', category: 'mobile' });
    const poor = runChecks({ ...snapshot, lighthouse: { performance: 31, accessibility: 48 } });
    expect(byId(poor, 'lighthouse').status).toBe('fail');
    expect(byId(poor, 'lighthouse-accessibility')).toMatchObject({ status: 'fail', evidence: ['Accessibility 48 of 100 (90 or more is good), measured in a real browser on a simulated phone'], topic: 'website-care' });
    expect(byId(runChecks({ ...snapshot, lighthouse: { performance: 95, accessibility: 75 } }), 'lighthouse-accessibility').status).toBe('warn');
    for (const id of ['lighthouse', 'lighthouse-accessibility']) {
      expect(byId(runChecks({ ...snapshot, lighthouse: undefined }), id)).toMatchObject({ status: 'skipped', evidence: ['Lighthouse was not run for this audit.'] });
    }
    // A run stopped at the browser's bounds says so in its own words (decision 056).
    const stopped = { ...snapshot, lighthouse: undefined, skipped: [{ check: 'Lighthouse' as const, reason: 'Lighthouse stopped: the page used too much memory (more than 1024 MB).' }] };
    expect(byId(runChecks(stopped), 'lighthouse')).toMatchObject({ status: 'skipped', evidence: ['Lighthouse stopped: the page used too much memory (more than 1024 MB).'] });
  });

  it('keeps the Core Web Vitals as measures rated by PageSpeed Insights, besides the evidence line', () => {
    const snapshot = good();
    const measured = runChecks({
      ...snapshot,
      lighthouse: { performance: 35, accessibility: 96, largestContentfulPaintMs: 26_912, cumulativeLayoutShift: 0.12, totalBlockingTimeMs: 180, firstContentfulPaintMs: 2_950, speedIndexMs: 5_800 },
    });
    const speed = byId(measured, 'lighthouse');
    expect(speed.status).toBe('fail');
    expect(speed.evidence).toEqual(['Performance 35 of 100 on a phone (90 or more is good)', 'Core Web Vitals: largest content shown after 26.9 s, layout shift 0.12, blocked for 180 ms, first content after 3 s']);
    expect(speed.measures).toEqual([
      { id: 'lcp', label: 'Largest content shown', value: 26_900, unit: 'ms', display: '26.9 s', rating: 'poor' },
      { id: 'cls', label: 'Layout shift (content jumping)', value: 0.12, unit: '', display: '0.12', rating: 'needs-improvement' },
      { id: 'tbt', label: 'Time blocked by scripts', value: 180, unit: 'ms', display: '180 ms', rating: 'good' },
      { id: 'fcp', label: 'First content shown', value: 3_000, unit: 'ms', display: '3 s', rating: 'needs-improvement' },
      { id: 'si', label: 'Page filled in (Speed Index)', value: 5_800, unit: 'ms', display: '5.8 s', rating: 'needs-improvement' },
    ]);
    // Only what Lighthouse measured; none at all when it measured none, and none on the accessibility check.
    const partial = byId(runChecks({ ...snapshot, lighthouse: { performance: 70, accessibility: 96, cumulativeLayoutShift: 0 } }), 'lighthouse');
    expect(partial.measures).toEqual([{ id: 'cls', label: 'Layout shift (content jumping)', value: 0, unit: '', display: '0.00', rating: 'good' }]);
    const bare = runChecks({ ...snapshot, lighthouse: { performance: 70, accessibility: 96 } });
    expect(byId(bare, 'lighthouse')).not.toHaveProperty('measures');
    expect(byId(bare, 'lighthouse').evidence).toContain('No Core Web Vitals measured');
    expect(byId(measured, 'lighthouse-accessibility')).not.toHaveProperty('measures');
    expect(byId(runChecks({ ...snapshot, lighthouse: undefined }), 'lighthouse')).not.toHaveProperty('measures');
  });

  it('does not pass a fast score while a Core Web Vital is poor, and says which', () => {
    const snapshot = good();
    const speed = (lighthouse: NonNullable<SiteSnapshot['lighthouse']>) => byId(runChecks({ ...snapshot, lighthouse }), 'lighthouse');
    const fine = { performance: 96, accessibility: 98, largestContentfulPaintMs: 2_500, cumulativeLayoutShift: 0.25, totalBlockingTimeMs: 600, firstContentfulPaintMs: 9_000, speedIndexMs: 9_000 };
    // At the poor bounds a vital still needs improvement; a poor FCP or Speed Index alone is not a Core Web Vital.
    expect(speed(fine)).toMatchObject({ status: 'pass' });
    expect(speed(fine).topic).toBeUndefined();

    const slowLcp = speed({ ...fine, largestContentfulPaintMs: 4_100 });
    expect(slowLcp).toMatchObject({ status: 'warn', topic: 'website-speed' });
    expect(slowLcp.evidence[0]).toBe('Performance 96 of 100 on a phone (90 or more is good)');
    expect(slowLcp.evidence[2]).toBe('Poor despite the score: largest content shown 4.1 s (good up to 2.5 s, poor over 4 s)');
    expect(slowLcp.fix).toMatch(/Core Web Vital/);
    expect(slowLcp.measures?.find((m) => m.id === 'lcp')?.rating).toBe('poor');

    expect(speed({ ...fine, cumulativeLayoutShift: 0.26 }).status).toBe('warn');
    expect(speed({ ...fine, totalBlockingTimeMs: 650 }).status).toBe('warn');
    const both = speed({ ...fine, performance: 90, largestContentfulPaintMs: 5_000, cumulativeLayoutShift: 0.4 });
    expect(both.status).toBe('warn');
    expect(both.evidence[2]).toBe('Poor despite the score: largest content shown 5 s (good up to 2.5 s, poor over 4 s); layout shift (content jumping) 0.40 (good up to 0.1, poor over 0.25)');
    // A score that does not pass keeps its band: a poor vital does not make a warning a failure, nor a failure milder.
    expect(speed({ ...fine, performance: 89, largestContentfulPaintMs: 9_000 })).toMatchObject({ status: 'warn', evidence: [expect.any(String), expect.any(String)] });
    expect(speed({ ...fine, performance: 40, largestContentfulPaintMs: 9_000 }).status).toBe('fail');
  });
});

describe('leads across pages', () => {
  const home = page('/', '<html><body><h1>Coaching</h1><p>Welcome.</p></body></html>');
  const contact = (html: string) => page('/contact', `<html><body>${html}</body></html>`);

  it('finds the contact form on another page and names it', () => {
    const checks = runChecks(snapshotOf(home, { pages: [home, contact('<form action="/send"><input name="your-email"><textarea></textarea></form>')] }));
    expect(byId(checks, 'contact-form')).toMatchObject({ status: 'pass', evidence: ['Form with an email field on /contact (sends to /send)'] });
  });

  it('warns when the form sends to an address that answers 404', () => {
    const pages = [home, contact('<form action="/old-form-handler.php#top"><input type="email"></form>')];
    const checks = runChecks(snapshotOf(home, { pages, links: [link('/old-form-handler.php', 404, '/contact')] }));
    expect(byId(checks, 'contact-form').status).toBe('warn');
    expect(byId(checks, 'contact-form').evidence).toEqual(['The form on /contact sends to /old-form-handler.php, which answers 404 Not Found']);
    expect(byId(checks, 'contact-form').topic).toBe('lead-capture');
  });

  it('counts an embedded booking iframe, a WhatsApp link and a testimonials heading on other pages', () => {
    const pages = [
      home,
      contact('<iframe src="https://cal.com/coach-anna/intro?embed=true"></iframe><a href="https://wa.me/441134960000">WhatsApp us</a><h2>Testimonials</h2>'),
    ];
    const checks = runChecks(snapshotOf(home, { pages }));
    expect(evidenceOf(checks, 'booking-link')).toBe("Cal.com on /contact: <iframe src> 'https://cal.com/coach-anna/intro?embed=true'");
    expect(byId(checks, 'chat-widget').status).toBe('pass');
    expect(byId(checks, 'chat-widget').evidence).toEqual(["WhatsApp on /contact: <a href> 'https://wa.me/441134960000'", 'Visitors can message you on WhatsApp, though not on the page itself']);
    expect(evidenceOf(checks, 'reviews')).toBe("Reviews on /contact: the heading 'Testimonials'");
  });

  it.each([
    ['booking-link', '<a href="https://smile.as.me/schedule.php">Book</a>', 'Acuity Scheduling'],
    ['booking-link', '<a href="https://app.squareup.com/appointments/book/abc/start">Book</a>', 'Square Appointments'],
    ['booking-link', '<a href="https://calendar.app.google/AbC123">Book</a>', 'Google Calendar appointments'],
    ['booking-link', '<div class="calendly-inline-widget" data-url="https://calendly.com/anna/intro"></div>', 'Calendly'],
    ['chat-widget', '<script src="//js.hs-scripts.com/1234.js" async></script>', 'HubSpot chat'],
    ['chat-widget', '<script src="https://connect.facebook.net/en_US/sdk/xfbml.customerchat.js"></script>', 'Facebook Messenger chat'],
    ['chat-widget', "<script>window.intercomSettings = {}; s.src = 'https://widget.intercom.io/widget/abc';</script>", 'Intercom'],
    ['reviews', '<script src="https://widget.trustpilot.com/bootstrap/v5/tp.widget.bootstrap.min.js"></script>', 'Trustpilot'],
    ['lead-magnet', '<a href="https://anna.ck.page/checklist">Get the checklist</a>', 'Kit (ConvertKit)'],
    ['contact-form', '<iframe src="https://form.jotform.com/123456"></iframe>', 'Jotform'],
  ])('%s recognises %s', (id, html, provider) => {
    const check = byId(runChecks(snapshotOf(page('/', `<html><body>${html}</body></html>`))), id);
    expect(check.status).toBe('pass');
    expect(check.evidence.join('\n')).toContain(`${provider} on the home page`);
  });

  it('counts a sign-up form by the words around it, and a plain input button as a call to action', () => {
    const html = '<body><input type="button" value="Request a callback"><section><h2>Our newsletter</h2><form><input type="email" name="email"><button>Join</button></form></section></body>';
    const checks = runChecks(snapshotOf(page('/', html)));
    expect(evidenceOf(checks, 'lead-magnet')).toBe("a sign-up form (mentions 'newsletter') on the home page, sending to /");
    expect(evidenceOf(checks, 'cta-above-fold')).toContain("'Request a callback'");
  });

  it('does not mistake look-alike hosts for providers', () => {
    const lookalikes = '<a href="https://canvas.measure.example/">x</a><a href="https://local.com/">y</a><a href="https://toolkit.com/">z</a>';
    const checks = runChecks(snapshotOf(page('/', `<html><body>${lookalikes}</body></html>`)));
    expect(byId(checks, 'booking-link').status).toBe('fail');
    expect(byId(checks, 'chat-widget').status).toBe('fail');
    expect(byId(checks, 'lead-magnet').status).toBe('warn');
  });

  it('treats a navigation menu link as navigation, and a header button as a call to action', () => {
    const filler = Array.from({ length: 40 }, (_, i) => `<p>Paragraph ${i} ${'text '.repeat(20)}</p>`).join('');
    const menuOnly = runChecks(snapshotOf(page('/', `<body><nav><a href="/contact">Contact</a></nav>${filler}<a href="/book">Book now</a></body>`)));
    expect(byId(menuOnly, 'cta-above-fold').status).toBe('warn');
    const headerButton = runChecks(snapshotOf(page('/', `<body><header><nav><a href="/">Home</a></nav><a href="/quote">Get a quote</a></header>${filler}</body>`)));
    expect(byId(headerButton, 'cta-above-fold').evidence).toEqual(["'Get a quote' near the top of the home page (after about 0 words), leading to /quote"]);
  });
});

describe('when the home page does not answer', () => {
  const pageChecks = (checks: CheckResult[]) => checks.filter((check) => !['reachable', 'https', 'http-redirects', 'lighthouse', 'lighthouse-accessibility'].includes(check.id));

  it('fails reachable and https on a TLS failure, and skips the page checks with the reason', () => {
    const failure = { code: 'tls-failed', message: 'The certificate of smile-dental.example has expired' };
    const checks = runChecks(snapshotOf(page('/', undefined, { status: 0, headers: {}, failure })));
    expect(byId(checks, 'reachable')).toMatchObject({ status: 'fail', evidence: ['The site did not answer: The certificate of smile-dental.example has expired'] });
    expect(byId(checks, 'https')).toMatchObject({ status: 'fail', evidence: ['The secure connection failed: The certificate of smile-dental.example has expired'] });
    for (const check of pageChecks(checks)) expect(check, check.id).toMatchObject({ status: 'skipped', evidence: [expect.stringContaining('expired')] });
  });

  it('audited over plain http after https failed: reachable passes, https fails with what https gave and the fix that fits', () => {
    const plainUrl = 'http://smile-dental.example/';
    const home = page('/', '<html lang="en"><title>Smile</title><h1>Smile</h1></html>', { requestedUrl: plainUrl, url: plainUrl });
    const attempt = (failure: { code: string; message: string }) => ({ ...response(`${SITE}/`, { status: 0, headers: {} }), failure });
    const expired = runChecks(snapshotOf(home, { httpsAttempt: attempt({ code: 'tls-failed', message: 'The certificate of smile-dental.example has expired' }) }));
    expect(byId(expired, 'reachable').status).toBe('pass');
    expect(byId(expired, 'https')).toMatchObject({
      status: 'fail',
      evidence: [`${SITE}/ did not answer: The certificate of smile-dental.example has expired`, `The site answers at ${plainUrl}, without encryption`],
      fix: expect.stringContaining('renew or reinstall it'),
    });
    const none = runChecks(snapshotOf(home, { httpsAttempt: attempt({ code: 'network', message: 'The connection to smile-dental.example failed' }) }));
    expect(byId(none, 'https').fix).toContain('free certificate');
    expect(byId(none, 'http-redirects')).toMatchObject({ status: 'skipped', evidence: ['The site itself is served over plain http (see "Secure connection").'] });
  });

  it('fails reachable on an error status or a file that is not a web page', () => {
    const notFound = runChecks(snapshotOf(page('/', '<h1>Not found</h1>', { status: 404 })));
    expect(byId(notFound, 'reachable').evidence).toEqual(['The home page answered 404 Not Found']);
    expect(byId(notFound, 'title').status).toBe('skipped');
    const pdf = runChecks(snapshotOf(page('/', undefined, { headers: { 'content-type': 'application/pdf' } })));
    expect(byId(pdf, 'reachable')).toMatchObject({ status: 'fail', evidence: ['The home page answered with application/pdf, not a web page'] });
    expect(pageChecks(pdf).every((check) => check.status === 'skipped')).toBe(true);
  });

  it('shows the redirect chain of the home page', () => {
    const home = page('/', '<title>x</title>', { requestedUrl: 'http://smile-dental.example/', redirects: [{ url: 'http://smile-dental.example/', status: 301 }] });
    expect(byId(runChecks(snapshotOf(home)), 'reachable').evidence[1]).toBe('Redirected: http://smile-dental.example/ (301) → https://smile-dental.example/');
  });
});

describe('hostile HTML', () => {
  const html = fixture('malicious.html');
  const checks = runChecks(snapshotOf(page('/', html)));

  it('never throws and judges every check normally', () => {
    expect(checks.map((check) => check.id)).toEqual(CHECK_IDS);
    for (const check of checks) expect(check.evidence.join('\n'), check.id).not.toMatch(UNEXPECTED);
  });

  it('quotes what the page says verbatim, as text', () => {
    expect(evidenceOf(checks, 'title')).toBe("Title: '<script>alert(1)</script>' (25 characters)");
    expect(evidenceOf(checks, 'meta-description')).toContain("Meta description: '<img src=x onerror=alert(1)>'");
    expect(evidenceOf(checks, 'open-graph')).toContain(`og:title: '"><script>alert('og')</script>'`);
    expect(evidenceOf(checks, 'twitter-card')).toBe(`twitter:card: 'summary' onmouseover='alert(1)'`);
    expect(evidenceOf(checks, 'lang')).toBe(`<html lang='en" onload="alert(1)'>`);
    expect(evidenceOf(checks, 'h1')).toContain("'Hello <b>world</b> gnp.exe'");
  });

  it('reports invalid JSON-LD with the parser message instead of failing', () => {
    const check = byId(checks, 'structured-data');
    expect(check.status).toBe('fail');
    expect(check.evidence[0]).toBe('Not valid JSON, so Google ignores them: 2 of 3 JSON-LD blocks on the home page');
    expect(check.evidence[1]).toMatch(/^Block 1: .*JSON/);
    expect(check.evidence[2]).toMatch(/^Block 2: /);
    expect(check.evidence[3]).toBe('Dentist without address, telephone');
  });

  it('drops control characters and bidi overrides, and keeps evidence short', () => {
    for (const check of checks) {
      const text = check.evidence.join('\n');
      expect(text, check.id).not.toMatch(/[\u0000-\u0008\u001b\u202e]/);
      expect(check.evidence.length, check.id).toBeLessThanOrEqual(12);
      for (const line of check.evidence) expect(line.length, check.id).toBeLessThan(420);
    }
  });

  it('judges the page itself, not the inline SVG or the script texts', () => {
    expect(byId(checks, 'canonical').status).toBe('warn');
    expect(byId(checks, 'viewport').status).toBe('warn');
    expect(byId(checks, 'chat-widget').evidence[0]).toBe('tawk.to on the home page: mentioned in an inline script');
    expect(byId(checks, 'reviews').evidence[0]).toBe(`Reviews on the home page: a <div> marked 'reviews'`);
    expect(byId(checks, 'contact-form').evidence[0]).toBe("Form with an email field on the home page (sends to javascript:alert(1))");
  });
});

describe('large pages', () => {
  const runsCleanly = (html: string) => {
    const checks = runChecks(snapshotOf(page('/', html)));
    expect(checks.map((check) => check.id)).toEqual(CHECK_IDS);
    for (const check of checks) expect(check.evidence.join('\n'), check.id).not.toMatch(UNEXPECTED);
    return checks;
  };

  it('audits a page with 100,000 elements', () => {
    const items = Array.from({ length: 50_000 }, (_, i) => `<li><a href="/p/${i}">${i % 3 === 0 ? 'x' : `Item ${i}`}</a></li>`).join('');
    const checks = runsCleanly(`<html><head><title>A very long list page</title></head><body><h1>List</h1><ul>${items}</ul></body></html>`);
    expect(byId(checks, 'h1').status).toBe('pass');
    expect(byId(checks, 'html-size').status).toBe('fail');
  });

  it('reads a page nested 100,000 deep only up to a browser-like depth, and says so', () => {
    const depth = 100_000;
    const checks = runsCleanly(`<body><h1>${'<span>'.repeat(depth)}deep${'</span>'.repeat(depth)}</h1>${'<div role="button">'.repeat(depth)}Book${'</div>'.repeat(depth)}</body>`);
    expect(byId(checks, 'h1').status).toBe('pass');
    expect(byId(checks, 'reachable').evidence[1]).toMatch(/^The page nests elements more than 256 deep, so only its first \d+ KB were judged$/);
  });

  it('reads deep but legitimate markup whole: text walks need no recursion', () => {
    const depth = 250;
    const checks = runsCleanly(`<body>${'<div><section>'.repeat(depth / 2)}<h1>Deep heading</h1><a href="tel:+44">Call</a>${'</section></div>'.repeat(depth / 2)}</body>`);
    expect(byId(checks, 'h1').evidence).toEqual(["H1: 'Deep heading'"]);
    expect(byId(checks, 'click-to-call').status).toBe('pass');
    expect(byId(checks, 'reachable').evidence).toHaveLength(1);
  });

  it('audits a 5 MB page with a huge inline script, style, attribute and text', () => {
    const mb = 1024 * 1024;
    const html = [
      '<html><head><title>Big page for testing</title>',
      `<style>${'p{color:red}'.repeat(mb / 12)}/* ${'{'.repeat(mb / 4)}</style>`,
      `<script>var x = "${'a'.repeat(mb)}";</script></head><body>`,
      `<div data-x="${'"'.repeat(1)}${'q'.repeat(mb)}"></div>`,
      `<p>${'0 1 2 3 4 5 6 7 '.repeat(mb / 16)}</p>`,
      `<p>${' '.repeat(mb / 2)}calendly</p>`,
      '</body></html>',
    ].join('');
    expect(html.length).toBeGreaterThan(4.5 * mb);
    const checks = runsCleanly(html);
    expect(byId(checks, 'title').status).toBe('pass');
    expect(byId(checks, 'html-size').status).toBe('fail');
  });
});

describe('nesting guard', () => {
  const deep = (open: string, count = 1_000) => open.repeat(count);

  it('finds where hostile nesting passes the limit, however the tags are written', () => {
    expect(nestingCut(deep('<div>'))).toBe(256 * 5);
    expect(nestingCut(deep('<div/>'))).toBeDefined();
    expect(nestingCut(deep('<div></x>'))).toBeDefined();
    expect(nestingCut(deep('<div><b></div>'))).toBeDefined();
    expect(nestingCut(deep('<p><b class=x></p>'))).toBeDefined();
  });

  it('leaves ordinary and sloppy pages whole', () => {
    expect(nestingCut(fixture('good.html'))).toBeUndefined();
    expect(nestingCut(fixture('defects.html'))).toBeUndefined();
    expect(nestingCut(`<ul>${deep('<li>item', 50_000)}</ul>${deep('<p>text', 50_000)}`)).toBeUndefined();
    expect(nestingCut(`<svg>${deep('<path d="M0 0"/>', 50_000)}</svg>`)).toBeUndefined();
    expect(nestingCut(deep('<div><span>unclosed span</div>', 5_000))).toBeUndefined();
    expect(nestingCut(`<script>${deep('<div>')}</script><textarea>${deep('<div>')}</TEXTAREA><!-- ${deep('<div>')} -->`)).toBeUndefined();
  });
});

describe('site audit text helpers', () => {
  it('cuts and quotes values by characters, with an ellipsis', () => {
    expect(cutText('  a\n\tb  ')).toBe('a b');
    expect(cutText('x'.repeat(161))).toBe(`${'x'.repeat(160)}…`);
    expect(cutText('😀'.repeat(160))).toBe('😀'.repeat(160));
    expect(cutText(`${'😀'.repeat(10)}!`, 10)).toBe(`${'😀'.repeat(10)}…`);
    expect(quote('<b>"hi"</b>')).toBe(`'<b>"hi"</b>'`);
    expect(cutText('a'.repeat(5_000_000)).length).toBe(161);
    expect(cutText(`Hello${' '.repeat(10_000)}World`)).toBe('Hello…');
  });

  it('counts words and formats sizes and times', () => {
    expect(countWords(' one two\nthree ')).toBe(3);
    expect(formatBytes(850)).toBe('850 bytes');
    expect(formatBytes(312 * 1024)).toBe('312 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatMs(420)).toBe('420 ms');
    expect(formatMs(1_840)).toBe('1.8 s');
    expect(formatDuration(15_552_000)).toBe('180 days');
    expect(formatDuration(31_536_000)).toBe('1 year');
  });

  it('shows at most a few lines and counts the rest', () => {
    expect(limitLines(['a', 'b', 'c'], 2)).toEqual(['a', 'b', 'and 1 more']);
    expect(limitLines(Array.from({ length: 45 }, String))).toHaveLength(9);
    expect(limitLines(Array.from({ length: 45 }, String)).at(-1)).toBe('and 37 more');
  });
});

describe('verdicts that agree with their evidence (issue 38)', () => {
  const withHomeHtml = (html: string, extra: Partial<SiteSnapshot> = {}) => runChecks(snapshotOf(page('/', html), extra));

  describe('image formats', () => {
    const withImages = (...images: FetchedResource[]) => withHomeHtml('<html><body><h1>Pictures</h1></body></html>', { resources: images });
    const image = (path: string, bytes: number, type: string) => resource(path, 'image', bytes, type ? { 'content-type': type } : {});

    it('fails an uncompressed BMP that large-images fails too, naming it, and lists the older formats after it', () => {
      const checks = withImages(image('/img/team.bmp', 1_400 * 1024, 'image/bmp'), image('/img/hero.webp', 80_000, 'image/webp'), image('/img/old.png', 120_000, 'image/png'));
      expect(byId(checks, 'large-images')).toMatchObject({ status: 'fail', evidence: ['Over 300 KB: 1 of 3 pictures', '1.4 MB /img/team.bmp'] });
      expect(byId(checks, 'image-formats')).toMatchObject({
        status: 'fail',
        evidence: [
          'Uncompressed pictures (BMP, TIFF) over 10 KB: 1 of 3 pictures; each weighs many times a JPEG, let alone a WebP',
          '1.4 MB image/bmp /img/team.bmp',
          'Also 1 older-format picture over 50 KB (could be WebP or AVIF)',
          '117 KB image/png /img/old.png',
        ],
        topic: 'website-speed',
      });
      expect(byId(checks, 'image-formats').fix).toContain('Convert the listed pictures to WebP or AVIF');
    });

    it.each([
      ['a TIFF', '/scan.tiff', 200_000, 'image/tiff', 'fail'],
      ['a BMP as image/x-ms-bmp', '/photo', 60_000, 'image/x-ms-bmp', 'fail'],
      ['a BMP known by its extension only', '/photo.BMP?v=2', 60_000, '', 'fail'],
      ['a BMP sent as application/octet-stream', '/photo.bmp', 60_000, 'application/octet-stream', 'fail'],
      ['a tiny BMP (a 32×32 icon)', '/dot.bmp', 4_000, 'image/bmp', 'pass'],
      ['a large WebP', '/a.webp', 250_000, 'image/webp', 'pass'],
      ['a large AVIF', '/a.avif', 250_000, 'image/avif', 'pass'],
      ['a large SVG (drawn, not stored pixel by pixel)', '/map.svg', 200_000, 'image/svg+xml; charset=utf-8', 'pass'],
      ['a JPEG over 50 KB', '/a.jpg', 60_000, 'image/jpeg', 'warn'],
      ['a PNG known by its extension only, over 50 KB', '/a.png', 60_000, '', 'warn'],
      ['a PNG under 50 KB', '/a.png', 40_000, 'image/png', 'pass'],
      ['a HEIC over 50 KB (not a web format)', '/a.heic', 80_000, 'image/heic', 'warn'],
      ['an icon over 50 KB', '/big.ico', 70_000, 'image/x-icon', 'warn'],
      ['an HTML error page answered for a picture', '/missing.jpg', 90_000, 'text/html', 'pass'],
    ])('%s: %s', (_, path, bytes, type, status) => {
      expect(byId(withImages(image(path, bytes, type)), 'image-formats').status).toBe(status);
    });

    it('says what it passed: the pictures over 50 KB, or that there were none', () => {
      expect(byId(withImages(image('/a.webp', 250_000, 'image/webp'), image('/b.png', 3_000, 'image/png')), 'image-formats').evidence).toEqual([
        'The picture over 50 KB is WebP, AVIF or SVG (2 pictures fetched)',
      ]);
      expect(byId(withImages(image('/b.png', 3_000, 'image/png')), 'image-formats').evidence).toEqual(['No picture over 50 KB in an older format, and none uncompressed (1 picture fetched)']);
      expect(byId(withImages(image('/picture?id=5', 90_000, '')), 'image-formats')).toMatchObject({
        status: 'pass',
        evidence: [
          'No picture over 50 KB in an older format, and none uncompressed (1 picture fetched)',
          'The format of 1 picture over 50 KB could not be told (no media type or known file name):',
          '88 KB a file of no known type /picture?id=5',
        ],
      });
    });
  });

  describe('text size and tap targets follow the viewport', () => {
    const tiny = '<p style="font-size:9px">Fine print</p><a href="/" style="width:10px;height:10px">x</a>';

    it.each([
      ['no viewport tag', '', 'Not judged: the page does not declare a viewport, so phones show it as a shrunken desktop page (see “Made to fit phone screens”)'],
      ['a fixed width', '<meta name="viewport" content="width=1024">', 'Not judged: the viewport tag sets a fixed width, so phones shrink the whole page to fit it (see “Made to fit phone screens”)'],
    ])('are not judged on a page with %s, which the viewport check fails', (_, meta, reason) => {
      const checks = withHomeHtml(`<html><head>${meta}</head><body>${tiny}</body></html>`);
      expect(byId(checks, 'viewport').status).toBe('fail');
      for (const id of ['font-size', 'tap-targets']) expect(byId(checks, id), id).toMatchObject({ status: 'skipped', evidence: [reason] });
      expect(byId(checks, 'font-size').topic).toBeUndefined();
    });

    it.each([
      ['laid out for phones', 'width=device-width, initial-scale=1', 'pass'],
      ['without width=device-width (the viewport only warns)', 'initial-scale=1', 'warn'],
    ])('are judged on a page %s', (_, content, viewportStatus) => {
      const checks = withHomeHtml(`<html><head><meta name="viewport" content="${content}"></head><body>${tiny}</body></html>`);
      expect(byId(checks, 'viewport').status).toBe(viewportStatus);
      expect(byId(checks, 'font-size').status).toBe('warn');
      expect(byId(checks, 'tap-targets').status).toBe('warn');
    });

    it('names what it found on the defects page once that page is laid out for phones', () => {
      const checks = withHomeHtml(fixture('defects.html').replace('content="width=1024"', 'content="width=device-width, initial-scale=1"'));
      expect(evidenceOf(checks, 'font-size')).toContain("'.small p, footer' { font-size: '10px' } in a <style> block");
      expect(evidenceOf(checks, 'font-size')).not.toContain('8px');
      expect(evidenceOf(checks, 'font-size')).toContain('Judged from the markup');
      expect(evidenceOf(checks, 'tap-targets')).toContain("<a style='width:16px;height:16px;display:inline-block'>");
      expect(evidenceOf(checks, 'tap-targets')).toContain('6 or more links in a row');
    });
  });

  describe('a call to action counts when its link answers', () => {
    const top = (links: CheckedLink[], body: string) => withHomeHtml(`<html><body>${body}<p>Welcome to the practice.</p></body></html>`, { links });

    it('fails a button whose link answers 404, naming the button, where it leads and the answer', () => {
      const checks = top([link('/contact', 404)], '<p><a href="/contact" class="button">Contact us</a></p>');
      expect(byId(checks, 'cta-above-fold')).toMatchObject({
        status: 'fail',
        evidence: ["'Contact us' near the top of the home page leads to /contact, which answers 404 Not Found"],
        topic: 'lead-capture',
      });
      expect(byId(checks, 'cta-above-fold').fix).toContain('leads to an error page');
      expect(byId(checks, 'broken-links').evidence).toContain('404 Not Found /contact (linked from /)');
    });

    it('resolves the link against the page and compares it without its #fragment; no answer is broken too', () => {
      const checks = top([link('/contact', 0)], '<a href="contact#form">Contact</a>');
      expect(byId(checks, 'cta-above-fold').evidence).toEqual(["'Contact' near the top of the home page leads to /contact, which answers no answer"]);
    });

    it('passes on a further call to action that works when the first is broken', () => {
      const checks = top([link('/contact', 404), link('/book', 200)], '<a href="/contact">Contact us</a> <a href="/book">Book now</a>');
      expect(byId(checks, 'cta-above-fold')).toMatchObject({ status: 'pass', evidence: ["'Book now' near the top of the home page (after about 2 words), leading to /book"] });
    });

    it.each([
      ['a button without a link', '<button>Request a callback</button>', [], "'Request a callback' near the top of the home page (after about 0 words)"],
      ['a same-page anchor', '<a href="#book">Book now</a>', [link('/', 200)], "'Book now' near the top of the home page (after about 0 words)"],
      ['a link to another site (not checked)', '<a href="https://calendly.com/smile/intro">Book a visit</a>', [], "'Book a visit' near the top of the home page (after about 0 words), leading to https://calendly.com/smile/intro"],
      ['a link the crawl did not check', '<a href="/quote">Get a quote</a>', [], "'Get a quote' near the top of the home page (after about 0 words), leading to /quote"],
      ['a link behind a login (401)', '<a href="/portal/book">Book online</a>', [link('/portal/book', 401)], "'Book online' near the top of the home page (after about 0 words), leading to /portal/book"],
    ])('counts %s as before', (_, body, links, evidence) => {
      expect(byId(top(links as CheckedLink[], body), 'cta-above-fold')).toMatchObject({ status: 'pass', evidence: [evidence] });
    });
  });

  it('lead-magnet warns when the sign-up form sends to a broken address, and names it when it works', () => {
    const form = '<section><h2>Our newsletter</h2><form action="/subscribe"><input type="email" name="email"><button>Join</button></form></section>';
    const broken = withHomeHtml(`<body>${form}</body>`, { links: [link('/subscribe', 404)] });
    expect(byId(broken, 'lead-magnet')).toMatchObject({ status: 'warn', evidence: ['The sign-up form on the home page sends to /subscribe, which answers 404 Not Found'], topic: 'newsletter' });
    expect(byId(broken, 'lead-magnet').fix).toContain('Sign-ups through the form are probably lost');
    const working = withHomeHtml(`<body>${form}</body>`, { links: [link('/subscribe', 200)] });
    expect(byId(working, 'lead-magnet').evidence).toEqual(["a sign-up form (mentions 'newsletter') on the home page, sending to /subscribe"]);
  });

  it('favicon warns when the icon the page names answers 404', () => {
    const html = '<html><head><link rel="icon" href="/favicon.png"></head><body></body></html>';
    const missing = withHomeHtml(html, { resources: [resource('/favicon.png', 'other', 300, HTML, { status: 404 })] });
    expect(byId(missing, 'favicon')).toMatchObject({ status: 'warn', evidence: ["<link rel='icon' href='/favicon.png'>", 'The icon answers 404 Not Found, so browsers show none'] });
    const there = withHomeHtml(html, { resources: [resource('/favicon.png', 'other', 300, { 'content-type': 'image/png' })] });
    expect(byId(there, 'favicon').status).toBe('pass');
  });

  it('noindex passes but says so when robots.txt keeps search engines out', () => {
    const checks = withHomeHtml('<html><head><title>Smile Dental in Leeds</title></head><body></body></html>', { robotsTxt: textFile('/robots.txt', 'User-agent: *\nDisallow: /\n') });
    expect(byId(checks, 'robots-txt').status).toBe('fail');
    expect(byId(checks, 'noindex')).toMatchObject({
      status: 'pass',
      evidence: ['No noindex in the robots meta tag or the X-Robots-Tag header', 'robots.txt keeps search engines from reading the site, though (see “robots.txt lets search engines in”)'],
    });
  });
});

describe('redirect evidence names where the site tried to send the check', () => {
  const START = 'http://smile-dental.example/';
  const METADATA = { code: 'address-not-allowed', message: '169.254.169.254 is a link-local (cloud metadata) address, which outbound requests may not reach' };
  const failedHome = (redirects: FetchedPage['redirects'], failure: { code: string; message: string }) =>
    page('/', undefined, { requestedUrl: START, url: redirects.at(-1)?.url ?? START, status: 0, headers: {}, redirects, failure });
  const reachable = (home: FetchedPage) => byId(runChecks(snapshotOf(home)), 'reachable');

  it('a refused redirect shows the address it pointed to and why, not the start address twice', () => {
    const home = failedHome([{ url: START, status: 302, location: 'http://169.254.169.254/latest/meta-data/' }], METADATA);
    const checks = runChecks(snapshotOf(home));
    expect(byId(checks, 'reachable')).toMatchObject({
      status: 'fail',
      evidence: [
        `The site redirected the check to an address it may not visit: ${METADATA.message}`,
        `Redirected: ${START} (302) → http://169.254.169.254/latest/meta-data/ (refused: not a public address)`,
      ],
    });
    expect(byId(checks, 'reachable').evidence.join('\n')).not.toContain(`(302) → ${START}`);
    expect(byId(checks, 'title')).toMatchObject({ status: 'skipped', evidence: [`The site redirected the check to an address it may not visit: ${METADATA.message}`] });
  });

  it.each([
    ['port-not-allowed', 'Port 8080 of shop.example may not be asked', 'http://shop.example:8080/', 'refused: a port the check does not ask'],
    ['scheme-not-allowed', 'Only http and https addresses may be fetched, not ftp', 'ftp://files.example/', 'refused: not an http or https address'],
    ['invalid-url', 'The server redirected to an address that is not a valid URL', 'http://[::1', 'refused: not a valid address'],
    ['dns-failed', 'The host name gone.example could not be resolved', 'https://gone.example/', 'did not answer: the host name gone.example could not be resolved'],
  ])('%s: the Location and the reason', (code, message, location, reason) => {
    const home = failedHome([{ url: START, status: 301, location }], { code, message });
    expect(reachable(home).evidence[1]).toBe(`Redirected: ${START} (301) → ${location} (${reason})`);
  });

  it('a loop shows its first hops and its last, and the redirect it did not follow', () => {
    const hops = ['/loop', '/loop2', '/loop', '/loop2', '/loop', '/loop2'].map((path, i) => ({ url: `${SITE}${path}`, status: 302, location: `${SITE}${i % 2 ? '/loop' : '/loop2'}` }));
    const evidence = reachable(failedHome(hops, { code: 'too-many-redirects', message: 'More than 5 redirects' })).evidence;
    expect(evidence).toEqual([
      'The site kept redirecting (more than 5 redirects)',
      `Redirected: ${SITE}/loop (302) → ${SITE}/loop2 (302) → … 3 more … → ${SITE}/loop2 (302) → ${SITE}/loop (not followed: more than 5 redirects)`,
    ]);
  });

  it('cuts a long Location and shows it as text', () => {
    const location = `https://evil.example/${'a'.repeat(3_000)}"><script>alert(1)</script>`;
    const line = reachable(failedHome([{ url: START, status: 302, location }], METADATA)).evidence[1]!;
    expect(line).toBe(`Redirected: ${START} (302) → ${`https://evil.example/${'a'.repeat(80)}`.slice(0, 80)}… (refused: not a public address)`);
  });

  it('a run stored before the Location was recorded still says the redirect was not followed', () => {
    const line = reachable(failedHome([{ url: START, status: 302 }], METADATA)).evidence[1];
    expect(line).toBe(`Redirected: ${START} (302) → an address not recorded (refused: not a public address)`);
  });

  it('a followed chain still ends at the address that answered', () => {
    const home = page('/', '<title>x</title>', { requestedUrl: START, redirects: [{ url: START, status: 301, location: `${SITE}/` }] });
    expect(reachable(home).evidence[1]).toBe(`Redirected: ${START} (301) → ${SITE}/`);
  });

  it('http-redirects warns with where the plain-http address sent visitors when that failed', () => {
    const plain = { ...response(START, { status: 0, redirects: [{ url: START, status: 301, location: 'https://smile-dental.example:8443/' }] }), failure: { code: 'port-not-allowed', message: 'Port 8443 …' } };
    const snapshot = goodSnapshot();
    const check = byId(runChecks({ ...snapshot, httpVersion: plain }), 'http-redirects');
    expect(check).toMatchObject({
      status: 'warn',
      evidence: [`${START} (301) → https://smile-dental.example:8443/ (refused: a port the check does not ask): visitors typing the address without https may see an error`],
    });
  });
});

describe('the number of checks', () => {
  it('is counted from the definitions; the README names it and the report limits stay above it', () => {
    const definitions = [SECURITY_CHECKS, SPEED_CHECKS, SEARCH_CHECKS, MOBILE_CHECKS, LEADS_CHECKS, LINKS_CHECKS].reduce((sum, list) => sum + list.length, 0);
    expect(CHECK_COUNT).toBe(definitions);
    expect(CHECK_COUNT).toBe(CHECK_IDS.length);
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(/(\d+) checks in six categories/.exec(readme)?.[1]).toBe(String(CHECK_COUNT));
    expect(REPORT_LIMITS.checks).toBeGreaterThan(CHECK_COUNT);
  });
});

describe('related checks never rest on the same thing for opposite verdicts', () => {
  /** A poor site as the issue found it: a 1.4 MB BMP, no viewport, small text, a 'Contact us' button to a 404. */
  function poorSnapshot(): SiteSnapshot {
    const html = `<html><head><title>Bob's Plumbing in Leeds</title></head><body>
      <p><a href="/contact" class="button">Contact us</a></p><h1>Plumbing</h1>
      <p style="font-size:9px">Small print</p><img src="/img/team.bmp"></body></html>`;
    return snapshotOf(page('/', html, { headers: HTML }), {
      resources: [resource('/img/team.bmp', 'image', 1_400 * 1024, { 'content-type': 'image/bmp' })],
      resourcesSeen: 1,
      links: [link('/contact', 404)],
      robotsTxt: textFile('/robots.txt', 'User-agent: *\nDisallow: /\n'),
    });
  }

  it.each([
    ['the good site', goodSnapshot],
    ['the defects site', defectsSnapshot],
    ['the poor site', poorSnapshot],
  ])('%s: no contradiction', (_, snapshotFor) => {
    const snapshot = snapshotFor();
    expect(contradictions(runChecks(snapshot), snapshot)).toEqual([]);
  });

  it('finds the contradictions of issue 38 when they are there (the verdicts as they were)', () => {
    const snapshot = poorSnapshot();
    const before: Record<string, Pick<CheckResult, 'status' | 'evidence'>> = {
      'image-formats': { status: 'pass', evidence: ['No picture over 50 KB is a JPEG, PNG or GIF (1 picture fetched)'] },
      'font-size': { status: 'pass', evidence: ['No body text styled below 12px'] },
      'tap-targets': { status: 'pass', evidence: ['No link or button sized under 24px or crowded together'] },
      'cta-above-fold': { status: 'pass', evidence: ["'Contact us' near the top of the home page (after about 0 words)"] },
      noindex: { status: 'pass', evidence: ['No noindex in the robots meta tag or the X-Robots-Tag header'] },
      'contact-form': { status: 'pass', evidence: ['Form with an email field on the home page (sends to /contact)'] },
    };
    const checks = runChecks(snapshot).map((check) => ({ ...check, ...before[check.id] }));
    expect(contradictions(checks, snapshot)).toEqual([
      'contact-form passes and broken-links fails, both citing /contact',
      'viewport fails, yet font-size is judged (pass) on the shrunken page',
      'viewport fails, yet tap-targets is judged (pass) on the shrunken page',
      "cta-above-fold passes on 'Contact us', which leads to /contact, a broken link",
      'contact-form passes with a form sending to /contact, a broken link',
      'image-formats passes over /img/team.bmp, a large picture in image/bmp',
      'noindex passes ("search engines may list the site") while robots.txt shuts them out, without saying so',
    ]);
  });
});
