/**
 * Fuzz: random and malformed methods, bodies, content types and headers to every Astro Action (as
 * `/_actions/<name>` and as a form post to a page), every endpoint (better-auth's included) and the two
 * pages form Actions post to, as a visitor and as signed-in members. No answer may be a 5xx, and every
 * request must get a complete answer in time (no reset, no hang).
 *
 * The routes come from tests/support/endpoints.ts (scanned from the sources): a new Action or API route is
 * fuzzed without editing this file. The run is deterministic for a seed: FUZZ_SEED=<n> replays a run,
 * FUZZ_ONLY=<id,id> sends only those requests of it, FUZZ_LOG=<file> lists every request and its answer.
 *
 * Other specs share this server, so: the shared member (accounts.setup.ts) only gets bodies no Action can
 * take and no auth endpoint at all; free-form requests with a session use a member signed up here; no
 * request with a session goes to an endpoint that ends sessions; emails are made up; every request has
 * its own client address for the rate limiter.
 */
import fs from 'node:fs';
import { expect, test } from './support/fixtures';
import { ACTION_NAMES, API_ROUTES, OTHER_ENDPOINTS } from '../support/endpoints';
import { MEMBER_STATE, createVerifiedAccount } from './support/accounts';
import {
  ACCEPTS,
  ALL_BODY_KINDS,
  BODY_KINDS,
  CONTENT_TYPES,
  INVALID_BODY_KINDS,
  METHODS,
  ODD_METHODS,
  Rng,
  clientIp,
  extraHeaders,
  memberCookie,
  originFor,
  visitorCookie,
  type BodyKind,
  type FuzzBody,
} from './support/fuzz-inputs';
import { mapLimited, send, type WireOutcome, type WireRequest } from './support/raw-http';

/** Fixed by default so CI is reproducible; FUZZ_SEED explores other runs. */
const DEFAULT_SEED = 0x5eed_2024;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) >>> 0 : DEFAULT_SEED;
const ONLY = process.env.FUZZ_ONLY ? new Set(process.env.FUZZ_ONLY.split(',').map(Number)) : undefined;
/** FUZZ_LOG=<file>: one line per request and its outcome, to see what a run sent (not only what failed). */
const LOG_FILE = process.env.FUZZ_LOG;
const CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 10_000;

/** Free-form requests per target for the members (see plan()); ~1,700 requests in all, ~15–30 s. */
const RANDOM_PER_TARGET = { member: 1, 'shared-member': 3 } as const;

type Who = 'visitor' | 'member' | 'shared-member';
type TargetKind = 'action' | 'form-action' | 'made-up-action' | 'api' | 'endpoint' | 'page';

interface Target {
  path: string;
  kind: TargetKind;
}

interface FuzzRequest extends WireRequest {
  id: number;
  who: Who;
  bodyKind: string;
}

// ---- What to fuzz -----------------------------------------------------------------------------------

function targets(): Target[] {
  return [
    // One guard for every transport: the same Action as an endpoint and as a form post to a page.
    ...ACTION_NAMES.flatMap((name): Target[] => [
      { path: `/_actions/${name}`, kind: 'action' },
      { path: `/?_action=${name}`, kind: 'form-action' },
      { path: `/dashboard?_action=${name}`, kind: 'form-action' },
    ]),
    // Names no Action has: a group of Actions (`account`), an unknown one, a prototype member, none.
    ...madeUpActionNames().flatMap((name): Target[] => [
      { path: `/_actions/${name}`, kind: 'made-up-action' },
      { path: `/?_action=${name}`, kind: 'made-up-action' },
    ]),
    ...API_ROUTES.map((path): Target => ({ path, kind: 'api' })),
    ...OTHER_ENDPOINTS.map((path): Target => ({ path, kind: 'endpoint' })),
    // The pages form Actions post to answer every method themselves.
    { path: '/', kind: 'page' },
    { path: '/dashboard', kind: 'page' },
  ];
}

function madeUpActionNames(): string[] {
  const groups = new Set(ACTION_NAMES.map((name) => name.split('.').slice(0, -1).join('.')).filter(Boolean));
  return [...groups, 'fuzz.missing', 'constructor', ''];
}

/**
 * Well-formed POSTs, one per body kind, by target: where a body is parsed. Other targets get their
 * bodies from the method sweep and the random requests.
 */
const BODY_SWEEP: Record<TargetKind, readonly BodyKind[]> = {
  action: ALL_BODY_KINDS,
  'form-action': ALL_BODY_KINDS,
  api: ALL_BODY_KINDS,
  // The name is looked up before the body is read: a few bodies are enough.
  'made-up-action': ['json-valid', 'form', 'json-invalid'],
  endpoint: [],
  page: [],
};

/** Endpoints that end or replace the caller's sessions: never called with a member's cookie. */
const ENDS_SESSIONS = /^\/api\/auth\/(sign-out|revoke-|account\/change-password|change-password|delete-user|reset-password)/;

/** Where a request with the shared member's cookie may go: Actions and non-auth routes, read-only auth. */
function sharedMemberMayCall(target: Target): boolean {
  if (target.path.startsWith('/api/auth/')) return target.path === '/api/auth/get-session';
  return target.kind !== 'made-up-action';
}

// ---- Building requests ------------------------------------------------------------------------------

interface Identity {
  who: Who;
  /** The real session cookie (members only). */
  cookie?: string;
}

interface Draw {
  method?: string;
  bodyKind?: BodyKind;
  /** The body's own content type, this site's Origin, the plain session cookie, no odd query or extra header: reaches the parser, not just the refusals. */
  wellFormed?: boolean;
}

class RequestFactory {
  private nextId = 1;
  private emailCount = 0;

  constructor(
    private readonly rng: Rng,
    private readonly siteOrigin: string,
  ) {}

  /** Never-existing addresses: no real account is ever signed into, reset or locked. */
  private email = () => `fuzz-${SEED.toString(36)}-${++this.emailCount}-${this.rng.word(5)}@example.com`;

  private method(target: Target): string {
    // Actions and API routes mostly take POST: weight it so bodies reach the parsers.
    const postWeight = target.kind === 'page' || target.kind === 'endpoint' ? 1 : 6;
    const choice = this.rng.weighted<string>([['POST', postWeight], ['GET', 1], ['odd', 1], ['other', 2]]);
    if (choice === 'odd') return this.rng.pick(ODD_METHODS);
    if (choice === 'other') return this.rng.pick(METHODS);
    return choice;
  }

  /** Some API requests carry a query too (better-auth reads tokens and callback URLs from it). */
  private path(target: Target): string {
    if (target.kind !== 'api' || !this.rng.chance(0.2)) return target.path;
    const odd = encodeURIComponent(this.rng.pick(['garbage', '//evil.example', 'javascript:alert(1)', '%', '\u0000', 'x'.repeat(3_000)]));
    return `${target.path}?${this.rng.pick(['token', 'callbackURL', 'error', 'currentURL'])}=${odd}`;
  }

  build(target: Target, identity: Identity, draw: Draw = {}): FuzzRequest {
    const rng = this.rng;
    const method = draw.method ?? this.method(target);
    const kinds = identity.who === 'shared-member' ? INVALID_BODY_KINDS : ALL_BODY_KINDS;
    const kind = draw.bodyKind ?? (method === 'GET' || method === 'HEAD' ? rng.pick(['empty', ...kinds] as BodyKind[]) : rng.pick(kinds));
    const body: FuzzBody = BODY_KINDS[kind](rng, { email: this.email, path: target.path });

    const headers: Record<string, string> = { 'x-real-ip': clientIp(rng) };
    const contentType = draw.wellFormed || rng.chance(0.5) ? body.naturalType : rng.pick(CONTENT_TYPES);
    if (contentType && (body.bytes.length > 0 || rng.chance(0.5))) headers['Content-Type'] = contentType;
    const origin = draw.wellFormed ? this.siteOrigin : originFor(rng, this.siteOrigin);
    if (origin) headers.Origin = origin;
    const accept = rng.pick(ACCEPTS);
    if (accept) headers.Accept = accept;
    // A well-formed member request keeps its session (a forged duplicate cookie may win and make it a visitor's).
    const cookie = identity.cookie ? (draw.wellFormed ? identity.cookie : memberCookie(rng, identity.cookie)) : visitorCookie(rng);
    if (cookie) headers.Cookie = cookie;
    // Not for the shared member: a foreign Host or an override must not turn an invalid call into another one.
    if (identity.who !== 'shared-member' && !draw.wellFormed) Object.assign(headers, extraHeaders(rng));

    const chunked = body.forceChunked === true || (body.bytes.length > 0 && rng.chance(0.2));
    const path = draw.wellFormed ? target.path : this.path(target);
    return { id: this.nextId++, who: identity.who, method, path, headers, body: body.bytes, bodyKind: body.kind, chunked };
  }
}

/**
 * The whole run, in a fixed order so a seed always gives the same requests (and ids):
 * - visitor: every target gets one request per method (random body and headers), then the body sweep
 *   (BODY_SWEEP);
 * - member signed up here: the body sweep of every Action target, and random requests to every target
 *   that does not end sessions;
 * - shared member: random requests with bodies no Action can take, Actions and read-only routes only.
 */
function plan(factory: RequestFactory, rng: Rng, member: Identity, sharedMember: Identity): FuzzRequest[] {
  const visitor: Identity = { who: 'visitor' };
  const requests: FuzzRequest[] = [];
  for (const target of targets()) {
    for (const method of [...METHODS, rng.pick(ODD_METHODS)]) requests.push(factory.build(target, visitor, { method }));
    const sweep = (identity: Identity) => {
      for (const bodyKind of BODY_SWEEP[target.kind]) requests.push(factory.build(target, identity, { method: 'POST', bodyKind, wellFormed: true }));
    };
    sweep(visitor);

    if (!ENDS_SESSIONS.test(target.path)) {
      // `/_actions/*` parses its body only after the guard lets a verified member through.
      if (target.kind !== 'api') sweep(member);
      for (let i = 0; i < RANDOM_PER_TARGET.member; i++) requests.push(factory.build(target, member));
    }
    if (sharedMemberMayCall(target)) {
      for (let i = 0; i < RANDOM_PER_TARGET['shared-member']; i++) requests.push(factory.build(target, sharedMember));
    }
  }
  return requests;
}

// ---- Reporting --------------------------------------------------------------------------------------

interface Result {
  request: FuzzRequest;
  outcome: WireOutcome;
}

/**
 * A large body cut off while it was still being sent: the server decided who may call before reading a
 * byte and closed on a body it would not read (decision 020; who-may-call-first.spec.ts accepts the same).
 * The kernel then resets the connection, so the client may lose the answer that was already sent.
 */
const REFUSED_UNREAD_MIN_BYTES = 64 * 1024;
const refusedUnread = ({ request, outcome }: Result) =>
  outcome.status === undefined && /^(EPIPE|ECONNRESET)\b/.test(outcome.error ?? '') && request.body.length >= REFUSED_UNREAD_MIN_BYTES;

const isFailure = (result: Result) => {
  const { outcome } = result;
  return !refusedUnread(result) && (outcome.error !== undefined || outcome.status === undefined || outcome.status >= 500);
};

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

function headerSummary(request: FuzzRequest, realCookies: string[]): string {
  return Object.entries(request.headers)
    .filter(([name]) => name !== 'x-real-ip')
    .map(([name, value]) => `${name}: ${oneLine(realCookies.reduce((v, c) => v.replaceAll(c, '<session>'), value), 60)}`)
    .concat(request.chunked ? ['Transfer-Encoding: chunked'] : [])
    .join(' | ');
}

/** A curl command for small printable bodies; other requests are replayed with FUZZ_ONLY. */
function curlFor(request: FuzzRequest, baseURL: string): string | undefined {
  const text = request.body.toString('utf8');
  const printable = request.body.length <= 400 && Buffer.from(text).equals(request.body) && !/[\u0000-\u0008\u000e-\u001f]/.test(text);
  if (!printable || request.method !== request.method.toUpperCase() || request.method === 'CONNECT') return undefined;
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const headers = Object.entries(request.headers).map(([n, v]) => `-H ${quote(`${n}: ${v}`)}`);
  if (request.chunked) headers.push(`-H 'Transfer-Encoding: chunked'`);
  const data = request.body.length > 0 ? ` --data-binary ${quote(text)}` : '';
  return `curl -si -X ${request.method} ${quote(baseURL + request.path)} ${headers.join(' ')}${data}`;
}

/** The first 200 characters of an answer; for an HTML page its title says more than its <head>. */
function answerPreview(answer: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(answer)?.[1];
  return oneLine(/^\s*<!doctype html|^\s*<html/i.test(answer) ? `[HTML page] ${title ?? ''}` : answer, 200);
}

function failureReport(failures: Result[], baseURL: string, realCookies: string[]): string {
  const lines = [`${failures.length} request(s) got a 5xx or no complete answer (seed ${SEED}):`, ''];
  for (const { request, outcome } of failures) {
    const answer = [outcome.status ?? 'no status', outcome.error].filter(Boolean).join(', ');
    lines.push(
      `#${request.id} ${request.who} ${request.method} ${request.path} → ${answer} (${outcome.ms} ms)`,
      `    headers: ${headerSummary(request, realCookies)}`,
      `    body:    ${request.bodyKind}, ${request.body.length} bytes: ${oneLine(request.body.toString('utf8'), 80)}`,
      `    answer:  ${answerPreview(outcome.answer)}`,
    );
    const curl = request.who === 'visitor' ? curlFor(request, baseURL) : undefined;
    if (curl) lines.push(`    repro:   ${curl}`);
  }
  // One cause usually fails many requests: count them by outcome, method and route, listing the bodies.
  const groups = new Map<string, { count: number; bodies: Set<string> }>();
  for (const { request, outcome } of failures) {
    const route = request.path.includes('?_action=') ? request.path : request.path.split('?')[0];
    const key = `${outcome.error ? `${outcome.status ?? 'no answer'} (${outcome.error.split(':')[0]})` : outcome.status} ${request.method} ${route}`;
    const group = groups.get(key) ?? { count: 0, bodies: new Set<string>() };
    group.count++;
    group.bodies.add(request.bodyKind.split(':')[0]!);
    groups.set(key, group);
  }
  lines.push('', 'By outcome, method and route:');
  for (const [key, { count, bodies }] of [...groups].sort()) lines.push(`  ${String(count).padStart(4)} × ${key}   [${[...bodies].sort().join(', ')}]`);
  const ids = failures.map((f) => f.request.id).join(',');
  const port = process.env.E2E_PORT ? `E2E_PORT=${process.env.E2E_PORT} ` : '';
  lines.push('', `Replay: ${port}FUZZ_SEED=${SEED} FUZZ_ONLY=${ids} npx playwright test tests/e2e/fuzz.spec.ts`);
  return lines.join('\n');
}

// ---- The spec ---------------------------------------------------------------------------------------

/** The session cookie header of a saved storage state (what accounts.setup.ts wrote). */
function cookieHeaderOf(cookies: Array<{ name: string; value: string }>): string {
  const session = cookies.filter((c) => c.name.endsWith('session_token'));
  if (session.length === 0) throw new Error('no session cookie in the storage state');
  return session.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** Whose session a cookie is, or why that could not be told (a crashed server must not hide the report). */
/** Who a cookie signs in, over a fresh connection (a pooled keep-alive one may have been closed meanwhile). */
async function sessionEmail(baseURL: string, cookie: string): Promise<string | undefined> {
  const res = await send(baseURL, { method: 'GET', path: '/api/auth/get-session', headers: { Cookie: cookie, 'x-real-ip': '10.255.255.1' }, body: Buffer.alloc(0), chunked: false }, 15_000);
  if (res.status !== 200) return `(no answer: ${res.error ?? res.status})`;
  try {
    return (JSON.parse(res.answer) as { user?: { email?: string } } | null)?.user?.email;
  } catch {
    return `(not JSON: ${res.answer.slice(0, 80)})`;
  }
}

/** The planned requests are shared out over this many tests, which run side by side on their own servers. */
const PARTS = 3;

test.describe('every Action and API route answers random and malformed requests without a 5xx', () => {
  test.describe.configure({ mode: 'parallel' });
  for (let part = 0; part < PARTS; part++) {
    test(`part ${part + 1} of ${PARTS}`, async ({ baseURL, playwright }, testInfo) => {
      test.setTimeout(120_000);
      console.log(`fuzz seed ${SEED}${process.env.FUZZ_SEED ? '' : ' (the default; FUZZ_SEED=<n> for another run)'}`);
      testInfo.annotations.push({ type: 'fuzz seed', description: String(SEED) });

      // A member of our own for free-form requests with a session (their data may change; the shared one's may not).
      const own = await playwright.request.newContext({ baseURL });
      const account = await createVerifiedAccount(own, baseURL!, 'fuzz');
      const member: Identity = { who: 'member', cookie: cookieHeaderOf((await own.storageState()).cookies) };
      await own.dispose();
      const sharedMember: Identity = { who: 'shared-member', cookie: cookieHeaderOf(JSON.parse(fs.readFileSync(MEMBER_STATE, 'utf8')).cookies) };
      const sharedEmail = await sessionEmail(baseURL!, sharedMember.cookie!);
      expect(await sessionEmail(baseURL!, member.cookie!)).toBe(account.email);
      expect(sharedEmail).toBeTruthy();

      const rng = new Rng(SEED);
      const all = plan(new RequestFactory(rng, new URL(baseURL!).origin), rng, member, sharedMember);
      // A replay (FUZZ_ONLY) sends its requests once, from the first part.
      const requests = ONLY ? (part === 0 ? all.filter((r) => ONLY.has(r.id)) : []) : all.filter((_, i) => i % PARTS === part);
      const started = Date.now();
      const results = await mapLimited(requests, CONCURRENCY, async (request) => ({ request, outcome: await send(baseURL!, request, REQUEST_TIMEOUT_MS) }));
      const byWho = (who: Who) => requests.filter((r) => r.who === who).length;
      console.log(
        `fuzz: ${requests.length} requests (visitor ${byWho('visitor')}, member ${byWho('member')}, shared member ${byWho('shared-member')}) ` +
          `to ${targets().length} targets in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );

      // The fuzz must not have ended either member's session (that would break the specs that share it).
      expect.soft(await sessionEmail(baseURL!, member.cookie!), 'the fuzz member is still signed in').toBe(account.email);
      expect.soft(await sessionEmail(baseURL!, sharedMember.cookie!), 'the shared member is still signed in').toBe(sharedEmail);

      if (LOG_FILE) {
        const line = ({ request: r, outcome: o }: Result) =>
          [r.id, r.who, r.method, oneLine(r.path, 100), r.bodyKind, r.chunked ? 'chunked' : '', headerSummary(r, [member.cookie!, sharedMember.cookie!]), o.status ?? '-', o.error ?? '', `${o.ms}ms`, answerPreview(o.answer)].join('\t');
        fs.writeFileSync(LOG_FILE, results.map(line).join('\n') + '\n');
      }

      const failures = results.filter(isFailure);
      const report = failures.length > 0 ? failureReport(failures, baseURL!, [member.cookie!, sharedMember.cookie!]) : '';
      expect(failures.length, report).toBe(0);
    });
  }
});
