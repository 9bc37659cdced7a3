/** Reachable and secure: does the site answer, over https, with the protective headers browsers understand. */
import type { CheckResult } from '../findings';
import { cutText, describeStatus, formatBytes, formatDuration, limitLines, plural, quote } from '../text';
import { describeRedirects, failedAfterRedirect, header, type AuditContext, type HomeContext } from './context';
import { fail, pageCheck, pass, runCategory, siteCheck, skip, warn, type CheckDefinition } from './define';
import { attr, relTokens } from './dom';
import { MAX_NESTING } from './nesting';

/** 180 days: the shortest HSTS lifetime SSL Labs and most security scanners accept. */
export const HSTS_MIN_SECONDS = 15_552_000;

const isHttps = (url: string) => /^https:/i.test(url);

function redirectChain(ctx: AuditContext): string | undefined {
  const chain = describeRedirects(ctx.snapshot.home);
  return chain && `Redirected: ${chain}`;
}

/** Directives of a Content-Security-Policy value, by lower-case name. */
function cspDirectives(policy: string): Map<string, string> {
  const directives = new Map<string, string>();
  for (const part of policy.split(/[;,]/)) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), values.join(' '));
  }
  return directives;
}

/** The policy from the header, or from a <meta http-equiv> in the page (which cannot set frame-ancestors). */
function contentSecurityPolicy(ctx: HomeContext): { policy: string; from: string } | undefined {
  const fromHeader = header(ctx.snapshot.home, 'content-security-policy');
  if (fromHeader) return { policy: fromHeader, from: 'header' };
  const meta = ctx.home.elements('meta').find((el) => attr(el, 'http-equiv').toLowerCase() === 'content-security-policy');
  return meta ? { policy: attr(meta, 'content'), from: '<meta> tag in the page' } : undefined;
}

const reachable = siteCheck({
  id: 'reachable',
  title: 'The site answers',
  why: 'If the home page does not load, every visitor and every search engine leaves with nothing.',
  fix: 'Check that the hosting is paid up and running and that the address points to it; your web host can confirm in minutes.',
  topic: 'website-care',
  judge(ctx) {
    const chain = redirectChain(ctx);
    const extra = chain ? [chain] : [];
    if (ctx.homeProblem) return fail(ctx.homeProblem, ...extra);
    const { home } = ctx.snapshot;
    const readUpTo = ctx.home?.readUpTo;
    if (readUpTo !== undefined) extra.push(`The page nests elements more than ${MAX_NESTING} deep, so only its first ${formatBytes(readUpTo)} were judged`);
    return pass(`${cutText(home.url)} answered ${describeStatus(home.status)} with a web page (${formatBytes(home.bodyBytes)} of HTML)`, ...extra);
  },
});

const BROKEN_CERTIFICATE_FIX =
  'The https certificate is broken, expired or for another name: renew or reinstall it (your web host can do this), then check the site in a browser.';

const https = siteCheck({
  id: 'https',
  title: 'Secure connection (https)',
  why: 'Browsers label pages without https "Not secure", and anything typed into a form can be read on the way. Google also ranks https sites higher.',
  fix: 'Switch the site to https with a free certificate (Let\'s Encrypt; most hosts offer it with one click) and keep it renewed.',
  topic: 'website-care',
  judge(ctx) {
    const { home, httpsAttempt } = ctx.snapshot;
    if (home.failure?.code === 'tls-failed') return { ...fail(`The secure connection failed: ${cutText(home.failure.message)}`), fix: BROKEN_CERTIFICATE_FIX };
    if (home.status === 0) return skip(ctx.homeProblem ?? 'Nothing answered.');
    if (isHttps(home.url)) return pass(`The site answers at ${cutText(home.url)}`);
    const plain = `The site answers at ${cutText(home.url)}, without encryption`;
    if (!httpsAttempt?.failure) return fail(plain);
    const verdict = fail(`${cutText(httpsAttempt.requestedUrl, 80)} did not answer: ${cutText(httpsAttempt.failure.message)}`, plain);
    return httpsAttempt.failure.code === 'tls-failed' ? { ...verdict, fix: BROKEN_CERTIFICATE_FIX } : verdict;
  },
});

const httpRedirects = siteCheck({
  id: 'http-redirects',
  title: 'Plain http sends visitors to https',
  why: 'People and old links still use the http:// address; without a redirect they land on an unsafe page or an error.',
  fix: 'Add a permanent (301) redirect from every http:// address to the same https:// address; one setting in most hosting panels.',
  topic: 'website-care',
  judge(ctx) {
    const plain = ctx.snapshot.httpVersion;
    if (!plain) {
      return isHttps(ctx.snapshot.home.url) ? skip('The plain-http address was not checked in this audit.') : skip('The site itself is served over plain http (see "Secure connection").');
    }
    const asked = cutText(plain.requestedUrl, 80);
    if (failedAfterRedirect(plain)) return warn(`${describeRedirects(plain)}: visitors typing the address without https may see an error`);
    if (plain.failure || plain.status === 0) {
      return warn(`${asked} did not answer${plain.failure ? `: ${cutText(plain.failure.message, 80)}` : ''}; visitors typing the address without https may see an error`);
    }
    const firstHop = plain.redirects[0]?.status;
    if (isHttps(plain.url)) return pass(`${asked} → ${cutText(plain.url, 80)}${firstHop ? ` (${firstHop})` : ''}`);
    return fail(`${asked} answered ${describeStatus(plain.status)} at ${cutText(plain.url, 80)} without sending visitors to https`);
  },
});

const hsts = pageCheck({
  id: 'hsts',
  title: 'Browsers are told to always use https (HSTS)',
  why: 'The Strict-Transport-Security header makes returning visitors\' browsers go straight to https, so nobody on the same Wi-Fi can slip them an unsafe copy of the site.',
  fix: 'Send the header "Strict-Transport-Security: max-age=31536000" (one year) from the server or hosting panel once https works everywhere.',
  topic: 'website-care',
  judge(ctx) {
    if (!isHttps(ctx.snapshot.home.url)) return skip('The site is not served over https yet, so this header does not apply (see "Secure connection").');
    const value = header(ctx.snapshot.home, 'strict-transport-security');
    if (!value) return fail('No Strict-Transport-Security header');
    const maxAge = /max-age\s*=\s*"?(\d+)/i.exec(value)?.[1];
    const seconds = maxAge === undefined ? 0 : Number(maxAge);
    const seen = `Strict-Transport-Security: ${cutText(value)}`;
    if (seconds >= HSTS_MIN_SECONDS) return pass(`${seen} (${formatDuration(seconds)})`);
    return warn(`${seen} (${maxAge === undefined ? 'no max-age' : formatDuration(seconds)}; at least ${formatDuration(HSTS_MIN_SECONDS)} expected)`);
  },
});

const csp = pageCheck({
  id: 'csp',
  title: 'Content Security Policy',
  why: 'A Content Security Policy tells browsers which scripts may run on your pages, so a hacked plugin or injected script cannot steal visitors\' data.',
  fix: 'Add a Content-Security-Policy header listing the sources your site really uses (start with "default-src \'self\'" and add your analytics and widgets); test it in report-only mode first.',
  topic: 'website-care',
  judge(ctx) {
    const found = contentSecurityPolicy(ctx);
    if (!found) {
      const reportOnly = header(ctx.snapshot.home, 'content-security-policy-report-only');
      if (reportOnly) return warn(`Only a report-only policy (it blocks nothing): ${quote(reportOnly)}`);
      return fail('No Content-Security-Policy header');
    }
    const directives = cspDirectives(found.policy);
    const scripts = directives.get('script-src') ?? directives.get('default-src') ?? '';
    const seen = `Content-Security-Policy (${found.from}): ${quote(found.policy)}`;
    const allowsInline = /'unsafe-inline'/i.test(scripts) && !/'(nonce-|sha256-|sha384-|sha512-)/i.test(scripts);
    if (allowsInline) {
      return {
        ...warn(seen, "Scripts allow 'unsafe-inline' without a nonce or hash, so an injected script would still run"),
        fix: "Replace 'unsafe-inline' in script-src with nonces or hashes of your inline scripts (or move them into files).",
      };
    }
    return pass(seen);
  },
});

const noSniff = pageCheck({
  id: 'x-content-type-options',
  title: 'Files are not reinterpreted (nosniff)',
  why: 'Without "X-Content-Type-Options: nosniff", a browser may treat an uploaded file as a script and run it.',
  fix: 'Send the header "X-Content-Type-Options: nosniff" on every response; it is one line in the server or hosting settings.',
  topic: 'website-care',
  judge(ctx) {
    const value = header(ctx.snapshot.home, 'x-content-type-options');
    if (value.toLowerCase() === 'nosniff') return pass('X-Content-Type-Options: nosniff');
    return warn(value ? `X-Content-Type-Options: ${quote(value)} (expected nosniff)` : 'No X-Content-Type-Options header');
  },
});

const frameProtection = pageCheck({
  id: 'frame-protection',
  title: 'Other sites cannot frame your pages',
  why: 'If any site can show your pages inside a frame, it can trick visitors into clicking buttons they cannot see ("clickjacking").',
  fix: 'Send "X-Frame-Options: SAMEORIGIN" or the Content-Security-Policy directive "frame-ancestors \'self\'".',
  topic: 'website-care',
  judge(ctx) {
    const xfo = header(ctx.snapshot.home, 'x-frame-options');
    const ancestors = cspDirectives(header(ctx.snapshot.home, 'content-security-policy')).get('frame-ancestors');
    if (ancestors !== undefined) return pass(`Content-Security-Policy frame-ancestors ${quote(ancestors)}`);
    if (/^(deny|sameorigin)$/i.test(xfo)) return pass(`X-Frame-Options: ${xfo}`);
    return warn(xfo ? `X-Frame-Options: ${quote(xfo)} (browsers only honour DENY or SAMEORIGIN)` : 'No X-Frame-Options header and no frame-ancestors in a Content-Security-Policy');
  },
});

const LEAKY_REFERRER_POLICIES = new Set(['unsafe-url', 'no-referrer-when-downgrade']);

const referrerPolicy = pageCheck({
  id: 'referrer-policy',
  title: 'Visited addresses stay private (Referrer-Policy)',
  why: 'Without a Referrer-Policy, the full address of the page a visitor was on can be passed to other sites they click through to, including anything in it such as a booking reference.',
  fix: 'Send "Referrer-Policy: strict-origin-when-cross-origin" (or set it in a <meta name="referrer"> tag).',
  topic: 'website-care',
  judge(ctx) {
    const fromHeader = header(ctx.snapshot.home, 'referrer-policy');
    const meta = ctx.home.elements('meta').find((el) => attr(el, 'name').toLowerCase() === 'referrer');
    const value = fromHeader || (meta ? attr(meta, 'content').trim() : '');
    if (!value) return warn('No Referrer-Policy header or <meta name="referrer">');
    // Several comma-separated values: browsers use the last one they know.
    const effective = value.split(',').map((token) => token.trim().toLowerCase()).filter(Boolean).pop() ?? '';
    const seen = `Referrer-Policy${fromHeader ? '' : ' (<meta> tag)'}: ${quote(value)}`;
    return LEAKY_REFERRER_POLICIES.has(effective) ? warn(seen, `'${effective}' sends full addresses to other sites`) : pass(seen);
  },
});

/** Where a page loads files from, and whether loading one over http breaks the page (active) or only warns. */
const MIXED_CONTENT_SOURCES: { tag: string; attrs: string[]; active: boolean; rel?: string }[] = [
  { tag: 'script', attrs: ['src'], active: true },
  { tag: 'link', attrs: ['href'], active: true, rel: 'stylesheet' },
  { tag: 'iframe', attrs: ['src'], active: true },
  { tag: 'embed', attrs: ['src'], active: true },
  { tag: 'object', attrs: ['data'], active: true },
  { tag: 'img', attrs: ['src', 'srcset'], active: false },
  { tag: 'source', attrs: ['src', 'srcset'], active: false },
  { tag: 'video', attrs: ['src', 'poster'], active: false },
  { tag: 'audio', attrs: ['src'], active: false },
];

/** The http:// addresses in a src/srcset value. */
function plainHttpUrls(value: string, isSrcset: boolean): string[] {
  const candidates = isSrcset ? value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '') : [value.trim()];
  return candidates.filter((url) => /^http:\/\//i.test(url));
}

function mixedContent(ctx: HomeContext): { url: string; tag: string; active: boolean }[] {
  const found: { url: string; tag: string; active: boolean }[] = [];
  for (const source of MIXED_CONTENT_SOURCES) {
    for (const el of ctx.home.elements(source.tag)) {
      if (source.rel && !relTokens(el).includes(source.rel)) continue;
      for (const name of source.attrs) {
        for (const url of plainHttpUrls(attr(el, name), name === 'srcset')) found.push({ url, tag: source.tag, active: source.active });
      }
    }
  }
  return found;
}

const mixed = pageCheck({
  id: 'mixed-content',
  title: 'Everything on the page loads over https',
  why: 'A secure page that loads files over plain http gets its padlock removed; browsers block http scripts and styles outright, which can break the page.',
  fix: 'Change the listed http:// addresses to https:// (or to addresses on your own site); most site builders have a "force https" or search-and-replace tool for this.',
  topic: 'website-care',
  judge(ctx) {
    if (!isHttps(ctx.home.url)) return skip('The page itself is not served over https (see "Secure connection").');
    const found = mixedContent(ctx);
    if (found.length === 0) return pass('No http:// files on the https home page');
    const evidence = [
      `${plural(found.length, 'file')} loaded over plain http on the home page:`,
      ...limitLines(found.map((item) => `<${item.tag}> ${quote(item.url)}${item.active ? ' (blocked by browsers)' : ''}`)),
    ];
    return found.some((item) => item.active) ? fail(...evidence) : warn(...evidence);
  },
});

export const SECURITY_CHECKS: readonly CheckDefinition[] = [
  reachable,
  https,
  httpRedirects,
  hsts,
  csp,
  noSniff,
  frameProtection,
  referrerPolicy,
  mixed,
];

export function securityChecks(ctx: AuditContext): CheckResult[] {
  return runCategory('security', SECURITY_CHECKS, ctx);
}
