/**
 * The one way the server fetches an address that did not come from its own code (the chat's LLM endpoint
 * today; website audits, webhooks out and CDN purges later): ARCHITECTURE.md "Outbound requests go through
 * one safe fetch", decision 018. For every hop:
 *  - http(s) only, no user name or password in the URL, and, when the caller names them, only its origins
 *    and ports;
 *  - the host resolved once, every address it has, and refused unless each one is public
 *    (outbound-address.ts): loopback, private, link-local, metadata and the like never;
 *  - the connection pinned to those checked addresses (the socket's `lookup` hands them back instead of
 *    asking DNS again), so an answer that changes between the check and the connect (DNS rebinding) is
 *    never used;
 *  - redirects followed by hand, a bounded number, each checked like the first address; credentials are
 *    dropped when a redirect leaves the origin;
 *  - the response body bounded in bytes and the whole exchange, last body byte included, in time.
 * Failures are SafeFetchError with a stable code and a message of our own (the dependency's error is only
 * the `cause`, for logs).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { classifyAddress } from './outbound-address';

export type SafeFetchFailure =
  | 'invalid-url'
  | 'scheme-not-allowed'
  | 'origin-not-allowed'
  | 'port-not-allowed'
  | 'address-not-allowed'
  | 'dns-failed'
  | 'tls-failed'
  | 'too-many-redirects'
  | 'response-too-large'
  | 'timeout'
  | 'aborted'
  | 'network';

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SafeFetchError';
  }
}

export interface SafeFetchInit {
  /** GET unless a body is given (then POST). */
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  body?: string | Uint8Array | undefined;
  signal?: AbortSignal | undefined;
  /** Only these origins are asked, redirects included ("https://api.example.com"). Unset: any public one. */
  allowedOrigins?: readonly string[] | undefined;
  /** The schemes allowed. Default: http and https. */
  protocols?: readonly ('http:' | 'https:')[] | undefined;
  /**
   * Only these ports are asked, redirects included (the port the URL names, else 80 or 443). Unset: any.
   * Stand-in hosts (the test network, fixture hosts) may use any port: their servers listen on random ones.
   */
  allowedPorts?: readonly number[] | undefined;
  /** Redirects followed, each checked like the first address; 0 refuses every redirect. */
  maxRedirects?: number | undefined;
  /** 'manual': a redirect is the answer (its Location not followed), as with fetch. Default 'follow'. */
  redirect?: 'follow' | 'manual' | undefined;
  /**
   * Told about each redirect answer before it is followed: the address that answered, its status and where
   * it pointed (the Location resolved against that address, or as the server wrote it when it is not a
   * valid URL), so a caller can say where a refused redirect tried to go.
   */
  onRedirect?: ((hop: RedirectAnswer) => void) | undefined;
  /** Response body bytes read at most; a longer body ends with response-too-large. */
  maxResponseBytes?: number | undefined;
  /** From the call to the last body byte. */
  timeoutMs?: number | undefined;
}

export interface RedirectAnswer {
  url: string;
  status: number;
  location: string;
}

export const SAFE_FETCH_DEFAULTS = { maxRedirects: 5, maxResponseBytes: 5 * 1024 * 1024, timeoutMs: 30_000 } as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([204, 205, 304]);
/** Headers that carry credentials: never sent on to another origin by a redirect. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

// ---------------------------------------------------------------------------------------------------------
// Tests only.

/**
 * How the tests' stand-in servers on this machine are reached. Production code never installs one: no
 * setting or environment variable does, and useTestNetwork refuses outside NODE_ENV=test.
 */
export interface TestNetwork {
  /**
   * Answers in place of DNS for these names ("llm.test" → "127.0.0.1"); the answer must be a loopback
   * address and is allowed for that name only. Every other name and every address typed in a URL
   * (127.0.0.1 included) follows the production rules.
   */
  hosts: Readonly<Record<string, string>>;
  /** The stand-ins' self-signed certificate (PEM), trusted besides the usual authorities. */
  ca?: string | undefined;
}

let testNetwork: TestNetwork | undefined;

export function useTestNetwork(network: TestNetwork | undefined): void {
  if (process.env.NODE_ENV !== 'test') throw new Error('useTestNetwork is for tests only (NODE_ENV=test)');
  for (const [host, address] of Object.entries(network?.hosts ?? {})) {
    if (classifyAddress(address).range !== 'loopback') throw new Error(`The test network may only point ${host} at a loopback address, not ${address}`);
  }
  testNetwork = network;
}

// ---------------------------------------------------------------------------------------------------------
// Fixture hosts: a production build under test (the e2e suite's audit fixture sites).

/** Names under .test only: the TLD is reserved (RFC 2606), so no real host can ever be redirected. */
const FIXTURE_HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+test$/;

let fixtureHosts: { names: ReadonlySet<string>; ca: string | undefined } = { names: new Set(), ca: undefined };

/**
 * Points these `.test` names at 127.0.0.1 in any NODE_ENV, as the test network does (any port allowed for
 * them), and trusts `ca` for them alone, so a fixture certificate can never vouch for a real host. Every
 * other name and address keeps the production rules. The server calls it at start-up from a setting and
 * warns loudly; `useFixtureHosts([])` clears.
 */
export function useFixtureHosts(names: readonly string[], options: { ca?: string | undefined } = {}): void {
  const lowered = names.map((name) => name.toLowerCase());
  const refused = lowered.filter((name) => !FIXTURE_HOST.test(name));
  if (refused.length > 0) throw new Error(`Fixture hosts must be names ending in .test, which no real host can have: ${refused.join(', ')}`);
  fixtureHosts = { names: new Set(lowered), ca: lowered.length > 0 ? options.ca : undefined };
}

/** A name the test network or the fixture hosts answer for (read without asking the answer). */
const isStandIn = (host: string) => (testNetwork !== undefined && Object.hasOwn(testNetwork.hosts, host)) || fixtureHosts.names.has(host);

/** The loopback address a stand-in name answers with, else undefined. */
function standInAddress(host: string): string | undefined {
  if (testNetwork && Object.hasOwn(testNetwork.hosts, host)) return testNetwork.hosts[host];
  return fixtureHosts.names.has(host) ? '127.0.0.1' : undefined;
}

export interface StandIns {
  testNetwork: TestNetwork | undefined;
  fixtureHosts: { names: string[]; ca: string | undefined };
}

/** The stand-ins in force here, for another process or thread (which starts with none) to adopt. */
export function currentStandIns(): StandIns {
  return { testNetwork, fixtureHosts: { names: [...fixtureHosts.names], ca: fixtureHosts.ca } };
}

/** Adopts another thread's stand-ins, under the same rules as setting them (tests only; .test names only). */
export function adoptStandIns(standIns: StandIns): void {
  if (standIns.testNetwork) useTestNetwork(standIns.testNetwork);
  useFixtureHosts(standIns.fixtureHosts.names, { ca: standIns.fixtureHosts.ca });
}

// ---------------------------------------------------------------------------------------------------------

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  carrierGradeNat: 'a carrier-grade NAT',
  uniqueLocal: 'a private (unique-local)',
  linkLocal: 'a link-local (cloud metadata)',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  invalid: 'an invalid',
};
const describeRange = (range: string) => RANGE_WORDS[range] ?? 'a reserved or special-purpose';

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** The checks made before anything is sent to `url`. */
function checkUrl(raw: string | URL, init: SafeFetchInit): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError('invalid-url', 'The address is not a valid URL');
  }
  const protocols = init.protocols ?? ['http:', 'https:'];
  if (!(protocols as readonly string[]).includes(url.protocol)) {
    throw new SafeFetchError('scheme-not-allowed', `Only ${protocols.map((p) => p.slice(0, -1)).join(' and ')} addresses may be fetched, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.username || url.password) throw new SafeFetchError('invalid-url', 'The address must not contain a user name or password');
  if (init.allowedOrigins && !init.allowedOrigins.some((o) => sameOrigin(o, url))) {
    throw new SafeFetchError('origin-not-allowed', `${url.origin} is not an origin this request may be sent to`);
  }
  return url;
}

function sameOrigin(origin: string, url: URL): boolean {
  try {
    return new URL(origin).origin === url.origin;
  } catch {
    return false;
  }
}

/** Every address of the host, each one public (or a test stand-in's); the connection uses only these. */
async function resolveChecked(url: URL): Promise<dns.LookupAddress[]> {
  const host = hostOf(url);
  const refuse = (address: string, range: string) =>
    new SafeFetchError('address-not-allowed', `${host === address ? address : `${host} (${address})`} is ${describeRange(range)} address, which outbound requests may not reach`);
  const literal = net.isIP(host);
  if (literal) {
    const verdict = classifyAddress(host);
    if (!verdict.allowed) throw refuse(host, verdict.range);
    return [{ address: host, family: literal }];
  }
  const standIn = standInAddress(host);
  if (standIn) return [{ address: standIn, family: net.isIP(standIn) }];
  let answers: dns.LookupAddress[];
  try {
    answers = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (err) {
    throw new SafeFetchError('dns-failed', `The host name ${host} could not be resolved`, { cause: err });
  }
  if (answers.length === 0) throw new SafeFetchError('dns-failed', `The host name ${host} has no address`);
  // One bad answer refuses the host: a name that also points inside is not trusted with the rest.
  for (const a of answers) {
    const verdict = classifyAddress(a.address);
    if (!verdict.allowed) throw refuse(a.address, verdict.range);
  }
  return answers;
}

const effectivePort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** Checked after the address, so a redirect inside (127.0.0.1:8080) is refused for being inside. */
function checkPort(url: URL, init: SafeFetchInit): void {
  const port = effectivePort(url);
  if (!init.allowedPorts || init.allowedPorts.includes(port) || isStandIn(hostOf(url))) return;
  const allowed = init.allowedPorts.join(' and ');
  throw new SafeFetchError('port-not-allowed', `Port ${port} of ${hostOf(url)} may not be asked: this request only goes to port${init.allowedPorts.length === 1 ? '' : 's'} ${allowed}`);
}

/** Hands the socket the addresses already checked, whatever it asks for: DNS is never asked twice. */
function pinnedLookup(addresses: dns.LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) return callback(null, addresses);
    const pick = addresses.find((a) => !options.family || a.family === options.family) ?? addresses[0]!;
    callback(null, pick.address, pick.family);
  };
}

const TLS_ERROR = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/;

/** Our reason when we stopped the exchange, else the failure in our words. */
function failureOf(err: unknown, stopped: AbortSignal, host: string): SafeFetchError {
  if (stopped.aborted && stopped.reason instanceof SafeFetchError) return stopped.reason;
  if (err instanceof SafeFetchError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TLS_ERROR.test(code)) return new SafeFetchError('tls-failed', `The secure connection to ${host} failed (its certificate is not trusted or does not match)`, { cause: err });
  return new SafeFetchError('network', `The connection to ${host} failed`, { cause: err });
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

function send(hop: Hop, addresses: dns.LookupAddress[], signal: AbortSignal): Promise<http.IncomingMessage> {
  const host = hostOf(hop.url);
  const secure = hop.url.protocol === 'https:';
  const options: https.RequestOptions = {
    hostname: host,
    port: hop.url.port || (secure ? 443 : 80),
    path: `${hop.url.pathname}${hop.url.search}`,
    method: hop.method,
    headers: hop.body === undefined ? hop.headers : { ...hop.headers, 'content-length': String(Buffer.byteLength(hop.body)) },
    lookup: pinnedLookup(addresses),
    // A connection of its own: a pooled socket could lead to an address checked for another host.
    agent: false,
    signal,
  };
  const standInCa = fixtureHosts.names.has(host) ? fixtureHosts.ca : testNetwork?.ca;
  if (secure && standInCa) options.ca = [...tls.rootCertificates, standInCa];
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(options, resolve);
    req.on('error', reject);
    req.end(hop.body);
  });
}

/** Where a connection made outside safeFetch may go, checked as one of its hops is (safe-proxy.ts). */
export interface CheckedTarget {
  host: string;
  port: number;
  /** Hands the connection the checked addresses: DNS is never asked again. */
  lookup: LookupFunction;
}

/**
 * Checks `url` as safeFetch checks a hop (scheme, credentials, every address, the port) without sending
 * anything. Rejects with SafeFetchError. For a browser's proxy, whose connections must obey the same rules.
 */
export async function checkTarget(url: string | URL, init: Pick<SafeFetchInit, 'protocols' | 'allowedPorts'> = {}): Promise<CheckedTarget> {
  const checked = checkUrl(url, init);
  const addresses = await resolveChecked(checked);
  checkPort(checked, init);
  return { host: hostOf(checked), port: effectivePort(checked), lookup: pinnedLookup(addresses) };
}

/** The response body as a web stream that errors once it passes `limit` bytes. */
function boundedBody(res: http.IncomingMessage, limit: number, host: string, stopped: AbortSignal, finished: () => void): ReadableStream<Uint8Array> {
  const chunks = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let read = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          finished();
          controller.close();
          return;
        }
        read += next.value.length;
        if (read > limit) throw new SafeFetchError('response-too-large', `The answer from ${host} is larger than ${limit} bytes`);
        controller.enqueue(new Uint8Array(next.value));
      } catch (err) {
        res.destroy();
        finished();
        controller.error(failureOf(err, stopped, host));
      }
    },
    cancel() {
      res.destroy();
      finished();
    },
  });
}

function responseOf(res: http.IncomingMessage, body: ReadableStream<Uint8Array> | null, url: URL): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const response = new Response(body, { status: res.statusCode ?? 502, statusText: res.statusMessage ?? '', headers });
  // Response.url is read-only and empty for a constructed response: give it the address that answered.
  Object.defineProperty(response, 'url', { value: url.toString() });
  return response;
}

/** The Location of a redirect answer, or undefined when the response is not one. */
function redirectLocation(res: http.IncomingMessage): string | undefined {
  const location = res.headers.location;
  return REDIRECTS.has(res.statusCode ?? 0) && location ? location : undefined;
}

/** Where a Location points, resolved against the hop that answered; undefined when it is not a valid URL. */
function resolveLocation(location: string, hop: Hop): URL | undefined {
  try {
    return new URL(location, hop.url);
  } catch {
    return undefined;
  }
}

/** The next hop of a redirect to `url`. */
function redirectOf(res: http.IncomingMessage, hop: Hop, url: URL): Hop {
  const status = res.statusCode!;
  // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
  const toGet = (status === 303 && hop.method !== 'HEAD') || ((status === 301 || status === 302) && hop.method === 'POST');
  const headers = { ...hop.headers };
  if (toGet) for (const name of Object.keys(headers)) if (/^content-/i.test(name)) delete headers[name];
  if (url.origin !== hop.url.origin) for (const name of Object.keys(headers)) if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete headers[name];
  return { url, method: toGet ? 'GET' : hop.method, headers, body: toGet ? undefined : hop.body };
}

/**
 * Fetches `url` under the rules above. Resolves with a Response whose body stream keeps the size and time
 * limits; rejects (and the body stream errors) with SafeFetchError.
 */
export async function safeFetch(url: string | URL, init: SafeFetchInit = {}): Promise<Response> {
  const maxRedirects = init.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const maxBytes = init.maxResponseBytes ?? SAFE_FETCH_DEFAULTS.maxResponseBytes;
  const timeoutMs = init.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;

  const controller = new AbortController();
  const stop = (reason: SafeFetchError) => controller.abort(reason);
  const timer = setTimeout(() => stop(new SafeFetchError('timeout', `No complete answer within ${timeoutMs} ms`)), timeoutMs);
  const onCallerAbort = () => stop(new SafeFetchError('aborted', 'The request was cancelled'));
  const finished = () => {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', onCallerAbort);
  };
  if (init.signal?.aborted) onCallerAbort();
  init.signal?.addEventListener('abort', onCallerAbort, { once: true });
  // DNS cannot be cancelled: the wait for it ends with the request all the same.
  const stopped = new Promise<never>((_, reject) => {
    const fail = () => reject(controller.signal.reason as SafeFetchError);
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener('abort', fail, { once: true });
  });
  stopped.catch(() => undefined);

  let hop: Hop = { url: checkUrl(url, init), method: (init.method ?? (init.body === undefined ? 'GET' : 'POST')).toUpperCase(), headers: { ...init.headers }, body: init.body };
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await Promise.race([resolveChecked(hop.url), stopped]);
      checkPort(hop.url, init);
      const res = await Promise.race([send(hop, addresses, controller.signal), stopped]);
      const location = init.redirect === 'manual' ? undefined : redirectLocation(res);
      if (location !== undefined) {
        res.destroy();
        const target = resolveLocation(location, hop);
        init.onRedirect?.({ url: hop.url.toString(), status: res.statusCode!, location: target?.toString() ?? location });
        if (!target) throw new SafeFetchError('invalid-url', 'The server redirected to an address that is not a valid URL');
        if (redirects >= maxRedirects) {
          throw new SafeFetchError('too-many-redirects', maxRedirects === 0 ? 'The server answered with a redirect, which this request does not follow' : `More than ${maxRedirects} redirects`);
        }
        const next = redirectOf(res, hop, target);
        hop = { ...next, url: checkUrl(next.url, init) };
        continue;
      }
      const host = hostOf(hop.url);
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) throw new SafeFetchError('response-too-large', `The answer from ${host} is larger than ${maxBytes} bytes`);
      if (NULL_BODY.has(res.statusCode ?? 0) || hop.method === 'HEAD') {
        res.destroy();
        finished();
        return responseOf(res, null, hop.url);
      }
      return responseOf(res, boundedBody(res, maxBytes, host, controller.signal, finished), hop.url);
    }
  } catch (err) {
    finished();
    controller.abort();
    throw failureOf(err, controller.signal, hostOf(hop.url));
  }
}
