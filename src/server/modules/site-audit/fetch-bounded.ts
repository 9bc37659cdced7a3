/**
 * One HTTP exchange of the audit, bounded in bytes and time, through the safe fetch: it always resolves,
 * with what was seen (status, headers, redirect chain, timings, sizes) and, when something went wrong,
 * a `failure` with the safe fetch's code (or the body reader's) and a message in plain words.
 */
import { SafeFetchError, safeFetch } from '../../http/safe-fetch';
import type { CrawlBudget } from './budget';
import { BodyReadError, readBody, type BodyUse } from './read-body';
import type { FetchFailure, FetchedResponse, RedirectHop } from './snapshot';

export interface ExchangeSettings {
  userAgent: string;
  allowedPorts: readonly number[];
  requestTimeoutMs: number;
  budget: CrawlBudget;
}

export interface ExchangeRequest {
  url: string;
  accept: string;
  /** Default GET. Nothing is ever POSTed. */
  method?: 'GET' | 'HEAD';
  /** false: a redirect is the answer (its Location unfollowed). Default true, at most five. */
  followRedirects?: boolean;
  maxBodyBytes: number;
  body: BodyUse;
}

export interface Exchange {
  response: FetchedResponse;
  /** The decoded body, when asked to keep it and it was read without a failure. */
  bytes?: Buffer;
}

const MAX_REDIRECTS = 5;
const MAX_LOCATION_CHARS = 2_000;

/** Lower-cased names, repeated headers joined; a Map first so a header named __proto__ stays a header. */
function headersOf(response: Response): Record<string, string> {
  const headers = new Map<string, string>();
  response.headers.forEach((value, name) => headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value));
  return Object.fromEntries(headers);
}

function failureOf(err: unknown, budget: CrawlBudget): FetchFailure {
  // The safe fetch reports our own stop as 'aborted': say why the audit stopped.
  if (err instanceof SafeFetchError && err.code === 'aborted') return budget.stopFailure() ?? { code: err.code, message: err.message };
  if (err instanceof SafeFetchError || err instanceof BodyReadError) return { code: err.code, message: err.message };
  return { code: 'network', message: 'The connection failed while the answer was read' };
}

/** The declared size of a body too large to be worth reading when only its size is wanted. */
function declaredOversize(headers: Record<string, string>, request: ExchangeRequest): number | undefined {
  const declared = Number(headers['content-length']);
  return request.body === 'count' && Number.isSafeInteger(declared) && declared > request.maxBodyBytes ? declared : undefined;
}

export async function fetchBounded(request: ExchangeRequest, settings: ExchangeSettings): Promise<Exchange> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const redirects: RedirectHop[] = [];
  const seen: FetchedResponse = {
    requestedUrl: request.url,
    url: request.url,
    status: 0,
    headers: {},
    redirects,
    timeToFirstByteMs: 0,
    totalMs: 0,
    transferBytes: 0,
    bodyBytes: 0,
    truncated: false,
  };
  let response: Response;
  try {
    response = await safeFetch(request.url, {
      method: request.method ?? 'GET',
      headers: { 'user-agent': settings.userAgent, accept: request.accept, 'accept-encoding': 'gzip, deflate, br' },
      signal: settings.budget.signal,
      allowedPorts: settings.allowedPorts,
      maxRedirects: MAX_REDIRECTS,
      redirect: request.followRedirects === false ? 'manual' : 'follow',
      // A Location is the site's text: kept to a sane length (evidence cuts it further when it shows it).
      onRedirect: ({ url, status, location }) => redirects.push({ url, status, location: location.slice(0, MAX_LOCATION_CHARS) }),
      // The body is bounded by the reader, which keeps the first bytes of a longer one instead of failing.
      maxResponseBytes: Number.POSITIVE_INFINITY,
      timeoutMs: settings.requestTimeoutMs,
    });
  } catch (err) {
    const time = elapsed();
    return { response: { ...seen, url: redirects.at(-1)?.url ?? request.url, timeToFirstByteMs: time, totalMs: time, failure: failureOf(err, settings.budget) } };
  }
  const answered: FetchedResponse = { ...seen, url: response.url, status: response.status, headers: headersOf(response), timeToFirstByteMs: elapsed() };

  const declared = declaredOversize(answered.headers, request);
  if (declared !== undefined) {
    await response.body?.cancel().catch(() => undefined);
    return { response: { ...answered, totalMs: elapsed(), transferBytes: declared, bodyBytes: declared, truncated: true } };
  }
  const read = await readBody(response.body, answered.headers['content-encoding'], { limit: request.maxBodyBytes, use: request.body });
  const complete: FetchedResponse = {
    ...answered,
    totalMs: elapsed(),
    transferBytes: read.transferBytes,
    bodyBytes: read.bodyBytes,
    truncated: read.truncated,
  };
  if (read.error !== undefined) return { response: { ...complete, failure: failureOf(read.error, settings.budget) } };
  return read.bytes ? { response: complete, bytes: read.bytes } : { response: complete };
}
