/**
 * Real-browser scores of the audited home page (issue 22): Google Lighthouse's performance and
 * accessibility categories and Core Web Vitals, on a simulated mid-range phone, in a Chromium the server
 * was given (AUDIT_CHROMIUM_PATH). Runs inside the audit's own process (worker.ts), beside the crawl.
 *
 * The browser reaches the site only through the safe proxy (safe-proxy.ts): it is started with
 * `--proxy-server`, loopback is not exempt from it, no DNS prefetching, no QUIC and no WebRTC outside the
 * proxy, so the page's own requests obey the same address rules as the crawler's. Its profile is a fresh
 * temporary one, removed with it; it is killed when the run ends, fails or the audit's time runs out.
 */
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { userAgents } from 'lighthouse/core/config/constants.js';
import { startSafeProxy } from '../../http/safe-proxy';
import type { LighthouseResult } from './snapshot';

export interface LighthouseSettings {
  chromiumPath: string;
  /** The ports the audit may reach, as for the crawl. */
  allowedPorts: readonly number[];
  /** Appended to Lighthouse's phone user agent, so the site's logs name who is asking. */
  userAgent: string;
}

/** What one run may pull through the proxy in all (the page, its files, what its scripts fetch). */
export const LIGHTHOUSE_MAX_BYTES = 40 * 1024 * 1024;
/** Lighthouse's own waits: for the first paint, then for the page to settle. */
const MAX_WAIT_FOR_FCP_MS = 15_000;
const MAX_WAIT_FOR_LOAD_MS = 25_000;
const REQUEST_TIMEOUT_MS = 15_000;

function chromiumFlags(proxyUrl: string): string[] {
  const flags = [
    '--headless=new',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-quic',
    '--dns-prefetch-disable',
    `--proxy-server=${proxyUrl}`,
    // Chromium sends loopback addresses around a proxy unless told not to: they must meet the proxy's rules too.
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    // Chromium's own calls home (updates, sign-in, time, safe browsing): nothing but the page goes out.
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-client-side-phishing-detection',
    '--disable-domain-reliability',
    '--disable-features=NetworkTimeServiceQuerying,OptimizationHints,MediaRouter,Translate,AutofillServerCommunication,CertificateTransparencyComponentUpdater',
    '--no-default-browser-check',
    '--no-first-run',
    '--disable-extensions',
    '--mute-audio',
  ];
  // Chromium's sandbox cannot start as root; the shipped service runs as its own user, where it does.
  if (process.getuid?.() === 0) flags.push('--no-sandbox');
  return flags;
}

const score = (value: number | null | undefined) => (typeof value === 'number' ? Math.round(value * 100) : undefined);
const metric = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The runner for crawlSite's `lighthouse` option. */
export function lighthouseRunner(settings: LighthouseSettings): (url: string, signal: AbortSignal) => Promise<LighthouseResult> {
  return async (url, signal) => {
    const proxy = await startSafeProxy({ allowedPorts: settings.allowedPorts, maxBytes: LIGHTHOUSE_MAX_BYTES, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    let chrome: LaunchedChrome | undefined;
    const kill = () => chrome?.kill();
    signal.addEventListener('abort', kill, { once: true });
    try {
      chrome = await launch({ chromePath: settings.chromiumPath, chromeFlags: chromiumFlags(proxy.url), logLevel: 'silent', handleSIGINT: false });
      if (signal.aborted) throw new Error('the audit ran out of time');
      const run = await lighthouse(url, {
        port: chrome.port,
        logLevel: 'silent',
        output: 'json',
        onlyCategories: ['performance', 'accessibility'],
        maxWaitForFcp: MAX_WAIT_FOR_FCP_MS,
        maxWaitForLoad: MAX_WAIT_FOR_LOAD_MS,
        emulatedUserAgent: `${userAgents.mobile} ${settings.userAgent}`,
        locale: 'en-US',
      });
      const lhr = run?.lhr;
      if (!lhr) throw new Error('Lighthouse gave no result');
      if (lhr.runtimeError) throw new Error(lhr.runtimeError.message);
      const performance = score(lhr.categories.performance?.score);
      const accessibility = score(lhr.categories.accessibility?.score);
      if (performance === undefined || accessibility === undefined) throw new Error('Lighthouse could not score the page');
      const audits = lhr.audits;
      return {
        performance,
        accessibility,
        largestContentfulPaintMs: metric(audits['largest-contentful-paint']?.numericValue),
        cumulativeLayoutShift: metric(audits['cumulative-layout-shift']?.numericValue),
        totalBlockingTimeMs: metric(audits['total-blocking-time']?.numericValue),
        firstContentfulPaintMs: metric(audits['first-contentful-paint']?.numericValue),
      };
    } finally {
      signal.removeEventListener('abort', kill);
      kill();
      await proxy.close();
    }
  };
}
