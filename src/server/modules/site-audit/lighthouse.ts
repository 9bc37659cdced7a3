/**
 * Real-browser scores of the audited home page (issue 22): Google Lighthouse's performance and
 * accessibility categories and Core Web Vitals, on a simulated mid-range phone, in a Chromium the server
 * was given (AUDIT_CHROMIUM_PATH). Runs inside the audit's own process (worker.ts), beside the crawl.
 *
 * The browser reaches the site only through the safe proxy (safe-proxy.ts): it is started with
 * `--proxy-server`, loopback is not exempt from it, no DNS prefetching, no QUIC and no WebRTC outside the
 * proxy, so the page's own requests obey the same address rules as the crawler's. It runs in a box
 * (browser/contained-browser.ts, decision 056): bounded memory, processor time and time, a minimal
 * environment, never root, a fresh profile, the DevTools protocol over a pipe; it is killed with every
 * process it started when the run ends, fails, hits a bound or the audit's time runs out.
 */
import lighthouse from 'lighthouse';
import { userAgents } from 'lighthouse/core/config/constants.js';
import puppeteer from 'puppeteer-core';
import { startSafeProxy } from '../../http/safe-proxy';
import { BrowserBoundError, DEFAULT_BROWSER_CPU_SECONDS, DEFAULT_BROWSER_MEMORY_MB, type BrowserBounds } from './browser/bounds';
import { launchContainedBrowser, type BrowserEvent, type ContainedBrowser } from './browser/contained-browser';
import { DEFAULT_BROWSER_USER } from './browser/user';
import { CRAWL_LIMITS } from './crawl-context';
import type { LighthouseResult } from './snapshot';
import { MB } from './text';

export interface LighthouseSettings {
  chromiumPath: string;
  /** The ports the audit may reach, as for the crawl. */
  allowedPorts: readonly number[];
  /** Appended to Lighthouse's phone user agent, so the site's logs name who is asking. */
  userAgent: string;
  /** What the browser may use; the defaults' where not given. */
  bounds?: Partial<BrowserBounds> | undefined;
  /** AUDIT_BROWSER_USER: who the browser runs as when the server is root. */
  browserUser?: string | undefined;
  /** Told when the browser starts and ends (worker.ts tells the server). */
  onBrowser?: ((event: BrowserEvent) => void) | undefined;
}

/** The audit's own limit and a margin: the watchdog's time bound, for when the audit's process is too busy to stop the run itself. */
const WALL_MARGIN_MS = 5_000;

export const DEFAULT_BROWSER_BOUNDS: Readonly<BrowserBounds> = Object.freeze({
  memoryBytes: DEFAULT_BROWSER_MEMORY_MB * MB,
  cpuMs: DEFAULT_BROWSER_CPU_SECONDS * 1000,
  wallMs: CRAWL_LIMITS.auditTimeoutMs + WALL_MARGIN_MS,
});

/** The time bound for an audit with `auditTimeoutMs`. */
export const browserWallMs = (auditTimeoutMs: number) => auditTimeoutMs + WALL_MARGIN_MS;

/** What one run may pull through the proxy in all (the page, its files, what its scripts fetch). */
export const LIGHTHOUSE_MAX_BYTES = 40 * 1024 * 1024;
/** Lighthouse's own waits: for the first paint, then for the page to settle. */
const MAX_WAIT_FOR_FCP_MS = 15_000;
const MAX_WAIT_FOR_LOAD_MS = 25_000;
const REQUEST_TIMEOUT_MS = 15_000;

function chromiumFlags(proxyUrl: string): string[] {
  return [
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
}

const score = (value: number | null | undefined) => (typeof value === 'number' ? Math.round(value * 100) : undefined);
const metric = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Lighthouse's run in the page, which gives up at once when the browser is gone (stopped at a bound, or crashed). */
async function measureIn(browser: ContainedBrowser, url: string, settings: LighthouseSettings): Promise<LighthouseResult> {
  const gone = browser.exited.then(() => {
    throw new Error('the browser quit');
  });
  gone.catch(() => undefined);
  const connection = await Promise.race([puppeteer.connect({ transport: browser.transport, defaultViewport: null }), gone]);
  try {
    const page = await Promise.race([connection.newPage(), gone]);
    const run = await Promise.race([
      lighthouse(
        url,
        {
          logLevel: 'silent',
          output: 'json',
          onlyCategories: ['performance', 'accessibility'],
          maxWaitForFcp: MAX_WAIT_FOR_FCP_MS,
          maxWaitForLoad: MAX_WAIT_FOR_LOAD_MS,
          emulatedUserAgent: `${userAgents.mobile} ${settings.userAgent}`,
          locale: 'en-US',
        },
        undefined,
        page,
      ),
      gone,
    ]);
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
      speedIndexMs: metric(audits['speed-index']?.numericValue),
    };
  } finally {
    void connection.disconnect().catch(() => undefined);
  }
}

/** The runner for crawlSite's `lighthouse` option. */
export function lighthouseRunner(settings: LighthouseSettings): (url: string, signal: AbortSignal) => Promise<LighthouseResult> {
  const bounds: BrowserBounds = { ...DEFAULT_BROWSER_BOUNDS, ...settings.bounds };
  return async (url, signal) => {
    const proxy = await startSafeProxy({ allowedPorts: settings.allowedPorts, maxBytes: LIGHTHOUSE_MAX_BYTES, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    let browser: ContainedBrowser | undefined;
    const stop = () => void browser?.stop();
    signal.addEventListener('abort', stop, { once: true });
    try {
      browser = await launchContainedBrowser({
        chromiumPath: settings.chromiumPath,
        flags: chromiumFlags(proxy.url),
        bounds,
        user: settings.browserUser ?? DEFAULT_BROWSER_USER,
        onChange: settings.onBrowser,
      });
      if (signal.aborted) throw new Error('the audit ran out of time');
      return await measureIn(browser, url, settings);
    } catch (err) {
      // The browser's end is the reason when it was stopped at a bound; otherwise what it said, if it never started.
      const stoppedAt = await browser?.stop();
      if (stoppedAt) throw new BrowserBoundError(stoppedAt, bounds);
      const said = browser?.errorOutput();
      if (said && err instanceof Error && err.message === 'the browser quit') throw new Error(`the browser quit: ${said.split('\n').at(-1)}`);
      throw err;
    } finally {
      signal.removeEventListener('abort', stop);
      await browser?.stop();
      await proxy.close();
    }
  };
}
