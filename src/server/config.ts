/**
 * Configuration from the environment, validated once at start-up. A bad value stops the process with a
 * message naming the variable, instead of surfacing later as a confusing runtime error.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'astro/zod';
import { DEFAULT_BROWSER_CPU_SECONDS, DEFAULT_BROWSER_MEMORY_MB } from './modules/site-audit/browser/bounds';
import { DEFAULT_BROWSER_USER, lookUpUser } from './modules/site-audit/browser/user';


type CoercedNumber = ReturnType<typeof z.coerce.number>;

/**
 * A whole-number setting in `unit`s, within `bounded`'s limits. An empty value is "unset" (the default),
 * not 0, which would silently switch the feature off.
 */
function wholeNumber(unit: string, fallback: number, bounded: (n: CoercedNumber) => CoercedNumber) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    bounded(z.coerce.number({ error: `must be a number of ${unit}` }).int({ error: `must be a whole number of ${unit}` })).default(fallback),
  );
}

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1' || v === 'yes'));

const MIN_ROUTE_CACHE_BYTES = 1_048_576;
const DEFAULT_ROUTE_CACHE_BYTES = 41_943_040;
/** 500 MB of stored images (WebP after resizing: thousands of pictures). */
const DEFAULT_MEDIA_QUOTA_BYTES = 524_288_000;
/** 32 MiB of hot images in memory: a typical site's pictures and their variants, a few times over. */
const MIN_MEDIA_CACHE_BYTES = 1_048_576;
const DEFAULT_MEDIA_CACHE_BYTES = 33_554_432;

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65535).default(4321),
  HOST: z.string().min(1).default('localhost'),
  /** Unset: the origin follows PORT and HOST (see siteOrigins). */
  SITE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as https://example.com' })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SEED_DEMO_CONTENT: booleanFlag(true),
  /** false: no page is stored; every request is a render (a CDN in front does the caching; the benchmark's renders). */
  ROUTE_CACHE: booleanFlag(true),
  ROUTE_CACHE_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(MIN_ROUTE_CACHE_BYTES, `must be at least ${MIN_ROUTE_CACHE_BYTES}`)
    .default(DEFAULT_ROUTE_CACHE_BYTES),
  /** The media library's size limit: an upload that would pass it is refused (402 storage/quota-exceeded). */
  /** An empty value is "unset" (the default), not 0, which would silently stop every upload. */
  MEDIA_QUOTA_BYTES: wholeNumber('bytes', DEFAULT_MEDIA_QUOTA_BYTES, (n) => n.min(0, 'must be 0 (no uploads) or more')),
  /** Memory for images served from /media (originals and variants), least recently used out first. */
  MEDIA_CACHE_BYTES: wholeNumber('bytes', DEFAULT_MEDIA_CACHE_BYTES, (n) => n.min(MIN_MEDIA_CACHE_BYTES, `must be at least ${MIN_MEDIA_CACHE_BYTES}`)),
  /**
   * Turns on /metrics (Prometheus text format) for whoever sends it as `Authorization: Bearer <token>`
   * (docs/decisions/025). Unset: /metrics does not exist (404).
   */
  METRICS_TOKEN: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]*$/, 'must be printable characters without spaces (it is sent in an HTTP header)')
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters (generate one with: openssl rand -hex 32)'),
  /**
   * On SIGTERM/SIGINT the server stops taking connections, lets requests in flight finish and ends live
   * chat streams with a reconnect hint, then closes the database and exits: all within this bound.
   */
  SHUTDOWN_TIMEOUT_MS: wholeNumber('milliseconds', 10_000, (n) => n.min(3_000, 'must be at least 3000').max(600_000, 'must be at most 600000')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Mail: SMTP when set (smtp:// or smtps://), otherwise .eml files in DATA_DIR/outbox/. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL such as smtps://user:pass@mail.example.com')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * The From of every mail: "Name <address>" or an address. Unset: the site's name (its texts) at
   * no-reply@ the SITE_URL's host (localhost for a local or IP address); the overview asks for a reply
   * address while the sender is one nobody reads.
   */
  MAIL_FROM: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || /^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(v), 'must be an address such as hello@example.com or Your Agency <hello@example.com>'),
  /** Signs sessions and links. Generated into DATA_DIR/auth-secret on the embedded DB; required with DATABASE_URL. */
  AUTH_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (generate one with: openssl rand -base64 32)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Header the reverse proxy sets to the client's IP (e.g. x-real-ip); unset = the socket address. */
  TRUSTED_PROXY_IP_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name such as x-real-ip')
    .transform((h) => h.toLowerCase())
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * The site owner's address: when set, only the account with this email (any case) becomes admin by the
   * first-account rule or the admin claim link; other first accounts stay members (docs/decisions/017).
   */
  ADMIN_EMAIL: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v),
    z
      .email({ error: 'must be an email address such as owner@example.com' })
      .transform((e) => e.toLowerCase())
      .optional(),
  ),
  /**
   * The chat's AI answers (LLM mode in /admin/chat-settings): the endpoint's API key, sent as a Bearer
   * token. Only ever read from here: never stored, logged or sent to the browser. Unset: search answers.
   */
  LLM_API_KEY: z
    .string()
    .trim()
    .max(500, 'must be at most 500 characters')
    .regex(/^[\x21-\x7e]*$/, 'must be printable characters without spaces (it is sent in an HTTP header)')
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /**
   * The only origin LLM_API_KEY is ever sent to (decision 018): the AI-answers endpoint an admin saves must
   * be on it. The key is the operator's, so where it goes is the operator's choice too, not the admin
   * session's. https only; unset: AI answers cannot be used.
   */
  LLM_API_ORIGIN: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const origin = httpsOrigin(v);
      if (origin) return origin;
      ctx.addIssue({ code: 'custom', message: 'must be an https origin such as https://api.openai.com (no path, user name or password)' });
      return z.NEVER;
    }),
  /** s-maxage of public pages: how long a CDN or caching proxy in front may keep one (docs/decisions/024). */
  CDN_MAX_AGE_SECONDS: seconds(300),
  /** stale-while-revalidate of public pages: how long past that a shared cache may serve it while refetching. */
  CDN_STALE_SECONDS: seconds(60),
  /** Where a content or settings change is purged (docs/decisions/024); unset: no purge is sent. */
  CDN_PURGE: z
    .enum(['cloudflare', 'fastly', 'bunny', 'varnish'], { error: 'must be cloudflare, fastly, bunny or varnish (or unset)' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** varnish: the address BAN requests go to (http://127.0.0.1:6081/). The operator's own: loopback is allowed. */
  CDN_PURGE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as http://127.0.0.1:6081/' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** cloudflare: the zone id; fastly: the service id; bunny: the pull zone id. */
  CDN_PURGE_ZONE: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be the zone, service or pull zone id (letters, digits, - and _)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** cloudflare: an API token with Cache Purge; fastly: an API token with purge_select; bunny: the API key. */
  CDN_PURGE_TOKEN: z
    .string()
    .trim()
    .max(500, 'must be at most 500 characters')
    .regex(/^[\x21-\x7e]*$/, 'must be printable characters without spaces (it is sent in an HTTP header)')
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** Website audits (issue 22) running at once across every server process; the rest wait in the job queue. */
  AUDIT_CONCURRENCY: wholeNumber('audits', 2, (n) => n.min(1, 'must be at least 1').max(20, 'must be at most 20')),
  /**
   * How long a team reply in the chat waits for the visitor's widget before it is emailed to the address
   * they left (replies in that time go in the same mail; issue 35).
   */
  CHAT_REPLY_MAIL_DELAY_SECONDS: wholeNumber('seconds', 60, (n) => n.min(0, 'must be 0 or more').max(3600, 'must be at most 3600')),
  /**
   * The automatic mails (audit confirmations, sequence steps) one address nobody has confirmed may get in
   * 24 hours (decision 057): anyone can type a stranger's address into the forms.
   */
  UNCONFIRMED_MAILS_PER_DAY: wholeNumber('mails', 3, (n) => n.min(1, 'must be at least 1').max(50, 'must be at most 50')),
  /** Lead notices each admin gets one by one in an hour; the hour's others come as one digest (decision 057). */
  LEAD_NOTICES_PER_HOUR: wholeNumber('notices', 5, (n) => n.min(1, 'must be at least 1').max(1000, 'must be at most 1000')),
  /** How long the private link to a sent audit report works (days). */
  AUDIT_REPORT_TTL_DAYS: wholeNumber('days', 30, (n) => n.min(1, 'must be at least 1').max(365, 'must be at most 365')),
  /**
   * A Chromium (or Chrome) executable: website audits then add Google Lighthouse's speed and accessibility
   * scores and Core Web Vitals, the browser reaching the site only through the audit's safe proxy.
   */
  AUDIT_CHROMIUM_PATH: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      if (!path.isAbsolute(v)) {
        ctx.addIssue({ code: 'custom', message: 'must be an absolute path, such as /usr/bin/chromium' });
        return z.NEVER;
      }
      try {
        fs.accessSync(v, fs.constants.X_OK);
        if (!fs.statSync(v).isFile()) throw new Error('not a file');
      } catch {
        ctx.addIssue({ code: 'custom', message: `no program this server may run is at ${v}` });
        return z.NEVER;
      }
      return v;
    }),
  /**
   * The website check's browser (decision 056): the memory its processes may hold together, and the
   * processor time they may use; past either it is stopped and the check says so. Per check at once
   * (AUDIT_CONCURRENCY).
   */
  AUDIT_BROWSER_MEMORY_MB: wholeNumber('megabytes', DEFAULT_BROWSER_MEMORY_MB, (n) => n.min(256, 'must be at least 256').max(65_536, 'must be at most 65536')),
  AUDIT_BROWSER_CPU_SECONDS: wholeNumber('seconds', DEFAULT_BROWSER_CPU_SECONDS, (n) => n.min(5, 'must be at least 5').max(3_600, 'must be at most 3600')),
  /** Who the browser runs as when the server runs as root (checked at start-up then); never root. */
  AUDIT_BROWSER_USER: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || DEFAULT_BROWSER_USER)
    .refine((v) => /^[A-Za-z_][A-Za-z0-9_.-]*\$?$|^\d+$/.test(v), 'must be a user name or number, such as nobody'),
  /** Cal.com's webhook secret (Settings → Developer → Webhooks): bookings made there come back to the lead. */
  BOOKING_WEBHOOK_SECRET_CALCOM: webhookSecret(),
  /** Calendly's webhook signing key (set when the webhook subscription is made through its API). */
  BOOKING_WEBHOOK_SECRET_CALENDLY: webhookSecret(),
  /** The generic booking webhook's secret (Standard Webhooks: whsec_ and base64 of 24 to 64 random bytes). */
  BOOKING_WEBHOOK_SECRET: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const base64 = v.startsWith('whsec_') ? v.slice(6) : v;
      const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(base64) ? Buffer.from(base64, 'base64').length : 0;
      if (bytes < 24 || bytes > 64) {
        ctx.addIssue({ code: 'custom', message: 'must be whsec_ followed by the base64 of 24 to 64 random bytes (e.g. "whsec_$(openssl rand -base64 32)")' });
        return z.NEVER;
      }
      return v;
    }),
  /** Ports a website audit may connect to besides 80 and 443 (comma-separated, e.g. 8080,8443). */
  AUDIT_EXTRA_PORTS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parts = (v ?? '').split(',').map((p) => p.trim()).filter(Boolean);
      const ports = parts.map(Number);
      if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
        ctx.addIssue({ code: 'custom', message: 'must be port numbers separated by commas, such as 8080,8443' });
        return z.NEVER;
      }
      return ports;
    }),
  /**
   * Tests only: host names under .test that website audits reach on this machine (127.0.0.1, any port),
   * for the fixture sites of the end-to-end tests. Logged as a warning at every start when set.
   */
  AUDIT_FIXTURE_HOSTS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const names = (v ?? '').split(',').map((n) => n.trim().toLowerCase()).filter(Boolean);
      if (names.some((n) => !/^[a-z0-9-]+(\.[a-z0-9-]+)*\.test$/.test(n))) {
        ctx.addIssue({ code: 'custom', message: 'must be host names ending in .test, separated by commas (tests only)' });
        return z.NEVER;
      }
      return names;
    }),
});

/** A scheduler's shared secret: unset, or long enough not to be guessed. */
function webhookSecret() {
  return z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters (e.g. the output of openssl rand -hex 32)');
}

function seconds(fallback: number) {
  return wholeNumber('seconds', fallback, (n) => n.min(0, 'must be 0 or more').max(31_536_000, 'must be at most a year (31536000)'));
}

/** What each purge target needs besides CDN_PURGE (docs/decisions/024). */
const PURGE_NEEDS = {
  cloudflare: ['CDN_PURGE_ZONE', 'CDN_PURGE_TOKEN'],
  fastly: ['CDN_PURGE_ZONE', 'CDN_PURGE_TOKEN'],
  bunny: ['CDN_PURGE_ZONE', 'CDN_PURGE_TOKEN'],
  varnish: ['CDN_PURGE_URL'],
} as const;

/** "https://Api.Example.com:443/" → "https://api.example.com"; undefined for anything but a bare https origin. */
function httpsOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const bare = url.protocol === 'https:' && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
  return bare && /^https:\/\/[^/?#]+\/?$/i.test(value) ? url.origin : undefined;
}

export type AppConfig = Omit<z.infer<typeof envSchema>, 'SITE_URL'> & {
  /** The public origin: SITE_URL, or the one PORT and HOST give when it is unset. */
  SITE_URL: string;
  /** Whether SITE_URL was set by the operator (a refused origin then points at that setting). */
  siteUrlIsExplicit: boolean;
  /** Origins whose state-changing requests are this site's own. */
  trustedOrigins: readonly string[];
  dataDir: string;
};

export class ConfigError extends Error {}

/**
 * What keeps the website check's browser from starting in its box (decision 056): setpriv (util-linux),
 * which drops its privileges and ties its life to its check's; and, for a server running as root, a user
 * to run it as that exists and is not root.
 */
function browserBoxProblem(user: string): string | undefined {
  if (spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status !== 0) return 'AUDIT_CHROMIUM_PATH: the website check’s browser needs setpriv (Debian package util-linux), which this machine lacks';
  if (process.getuid?.() !== 0) return undefined;
  const found = lookUpUser(user);
  if (!found) return `AUDIT_BROWSER_USER: no user ${user} on this machine (the server runs as root, so the browser runs as this user)`;
  if (found.uid === 0) return `AUDIT_BROWSER_USER: ${user} is root; the browser must run as an unprivileged user`;
  return undefined;
}

export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (result.data.DATABASE_URL && !result.data.AUTH_SECRET) {
    // Every server node must sign with the same secret, so it cannot be generated per data folder.
    throw new ConfigError('Invalid configuration:\n  AUTH_SECRET: is required when DATABASE_URL is set');
  }
  const purge = result.data.CDN_PURGE;
  const missing = purge ? PURGE_NEEDS[purge].filter((name) => !result.data[name]) : [];
  if (purge && missing.length) {
    throw new ConfigError(`Invalid configuration:\n${missing.map((name) => `  ${name}: is required when CDN_PURGE=${purge}`).join('\n')}`);
  }
  const browserProblem = result.data.AUDIT_CHROMIUM_PATH ? browserBoxProblem(result.data.AUDIT_BROWSER_USER) : undefined;
  if (browserProblem) throw new ConfigError(`Invalid configuration:\n  ${browserProblem}`);
  const origins = siteOrigins(result.data);
  return { ...result.data, ...origins, dataDir: path.resolve(result.data.DATA_DIR) };
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * With SITE_URL set, it is the one trusted origin. Unset (a newcomer's `PORT=4500 npm start`), the origin
 * follows PORT and HOST, and a loopback or wildcard HOST trusts both spellings a browser may be given,
 * http://localhost:PORT and http://127.0.0.1:PORT, so nobody is locked out of their own fresh install.
 */
export function siteOrigins(env: { SITE_URL?: string | undefined; PORT: number; HOST: string }): {
  SITE_URL: string;
  siteUrlIsExplicit: boolean;
  trustedOrigins: readonly string[];
} {
  if (env.SITE_URL) return { SITE_URL: env.SITE_URL, siteUrlIsExplicit: true, trustedOrigins: [new URL(env.SITE_URL).origin] };
  const host = env.HOST.toLowerCase();
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const originOf = (h: string) => new URL(`http://${h}:${env.PORT}`).origin;
  const local = LOOPBACK_HOSTS.has(host) || WILDCARD_HOSTS.has(host);
  const SITE_URL = originOf(WILDCARD_HOSTS.has(host) ? 'localhost' : bracketed);
  const trusted = local ? [...new Set([SITE_URL, ...['localhost', '127.0.0.1', '[::1]'].map(originOf)])] : [SITE_URL];
  return { SITE_URL, siteUrlIsExplicit: false, trustedOrigins: trusted };
}

let cached: AppConfig | undefined;
export function config(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
