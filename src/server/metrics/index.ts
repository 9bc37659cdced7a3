/**
 * /metrics for operators, in the Prometheus text format (prom-client), only when METRICS_TOKEN is set and
 * only for a request that sends it as a Bearer token (docs/decisions/025). server.mjs finds the hooks under
 * a process-wide symbol: it times every request (cache hits and files included, which never reach Astro)
 * and answers /metrics before the route cache or Astro could. Without the token nothing is registered and
 * /metrics is an unknown page like any other (404).
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import client from 'prom-client';
import { ROUTE_CACHE_STORE_SYMBOL } from '../cache/fast-path';
import type { ByteLimitedStore } from '../cache/byte-store';
import type { DatabaseHandle } from '../db/client';
import { mailQueue } from '../db/schema';
import { databaseAnswers } from '../db/unavailable';
import { logger } from '../logger';
import { MAX_ATTEMPTS } from '../mail/queue';
import { openStreamCount } from '../modules/chat/open-streams';
import { ROUTE_LABEL_SYMBOL } from './route-label';

/** server.mjs reads the hooks under this symbol; the name is repeated there, keep both in step. */
export const METRICS_SYMBOL = Symbol.for('agency.metrics');

/** Labels server.mjs gives what it answers itself; `(route cache)` is resolved to the page's route below. */
const CACHE_HIT_LABEL = '(route cache)';
const UNMATCHED_LABEL = '(unmatched)';
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route each cached path was rendered by, learnt when it was stored, so a cache hit (answered before
 * Astro routes it) is counted under its route. Bounded like the cache's admission list.
 */
const ROUTE_OF_PATH_LIMIT = 10_000;

export interface MetricsHooks {
  /** Times a request; `locals` is what server.mjs handed Astro (the route label is read back from it). */
  track(req: IncomingMessage, res: ServerResponse, locals: object): void;
  /** Answers GET /metrics: 401 without the token. */
  serve(req: IncomingMessage, res: ServerResponse): void;
}

function digest(value: string): Buffer {
  return crypto.createHash('sha256').update(value).digest();
}

/** Constant-time: equal-length digests, so neither the token's length nor its prefix leaks by timing. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return crypto.timingSafeEqual(digest(presented), digest(token));
}

export function createMetrics(token: string, handle: DatabaseHandle): MetricsHooks {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'agency_' });

  const requests = new client.Counter({
    name: 'agency_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'agency_http_request_duration_seconds',
    help: 'Time from the request to the end of its response (live streams: their whole life), by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const cacheRequests = new client.Counter({
    name: 'agency_route_cache_requests_total',
    help: 'Requests for cacheable pages answered from the route cache (hit) or rendered and stored (miss).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const routeCacheStore = () => Reflect.get(globalThis, ROUTE_CACHE_STORE_SYMBOL) as ByteLimitedStore | undefined;
  new client.Gauge({
    name: 'agency_route_cache_bytes',
    help: 'Bytes held by the route cache (ROUTE_CACHE_BYTES is its limit).',
    registers: [registry],
    collect() {
      this.set(routeCacheStore()?.bytes ?? 0);
    },
  });
  new client.Gauge({
    name: 'agency_route_cache_entries',
    help: 'Pages held by the route cache.',
    registers: [registry],
    collect() {
      this.set(routeCacheStore()?.size ?? 0);
    },
  });
  new client.Gauge({
    name: 'agency_chat_open_streams',
    help: 'Live chat streams (visitor widgets and admin inboxes) open in this process.',
    registers: [registry],
    collect() {
      this.set(openStreamCount());
    },
  });
  new client.Gauge({
    name: 'agency_database_up',
    help: '1 when the database answered a query just now, 0 when it did not.',
    registers: [registry],
    async collect() {
      this.set((await databaseAnswers()) ? 1 : 0);
    },
  });
  new client.Gauge({
    name: 'agency_mail_queue_messages',
    help: 'Queued mail read from the database: pending (not sent yet), failing (pending after a failed try), given_up (every retry failed).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset(); // the database may not answer: then no value rather than an old one
      try {
        const unsent = sql`${mailQueue.sentAt} is null`;
        const [row] = await handle.db
          .select({
            pending: sql<number>`count(*) filter (where ${unsent} and ${mailQueue.attempts} < ${MAX_ATTEMPTS})`.mapWith(Number),
            failing: sql<number>`count(*) filter (where ${unsent} and ${mailQueue.attempts} < ${MAX_ATTEMPTS} and ${mailQueue.lastError} is not null)`.mapWith(Number),
            givenUp: sql<number>`count(*) filter (where ${unsent} and ${mailQueue.attempts} >= ${MAX_ATTEMPTS})`.mapWith(Number),
          })
          .from(mailQueue);
        this.set({ state: 'pending' }, row?.pending ?? 0);
        this.set({ state: 'failing' }, row?.failing ?? 0);
        this.set({ state: 'given_up' }, row?.givenUp ?? 0);
      } catch (err) {
        logger.warn({ err }, 'metrics: the mail queue could not be read');
      }
    },
  });
  const pool = handle.postgres?.pool;
  if (pool) {
    new client.Gauge({
      name: 'agency_db_pool_connections',
      help: 'PostgreSQL connections in this process’s pool: total open, and idle among them.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new client.Gauge({
      name: 'agency_db_pool_waiting_requests',
      help: 'Queries waiting for a free PostgreSQL connection in this process’s pool.',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  const routeOfPath = new Map<string, string>();

  function routeLabel(path: string, locals: object, cacheHeader: string | undefined): string {
    const label = Reflect.get(locals, ROUTE_LABEL_SYMBOL) as unknown;
    // A hit is answered before the middleware could name its route (by server.mjs or by the cache provider).
    if (label === CACHE_HIT_LABEL || (label === undefined && cacheHeader === 'HIT')) return routeOfPath.get(path) ?? CACHE_HIT_LABEL;
    if (typeof label !== 'string' || label === '') return UNMATCHED_LABEL;
    if (cacheHeader && !routeOfPath.has(path)) {
      if (routeOfPath.size >= ROUTE_OF_PATH_LIMIT) routeOfPath.clear();
      routeOfPath.set(path, label);
    }
    return label;
  }

  return {
    track(req, res, locals) {
      const started = process.hrtime.bigint();
      res.once('close', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const cacheHeader = Reflect.get(locals, ROUTE_LABEL_SYMBOL) === CACHE_HIT_LABEL ? 'HIT' : res.getHeader('x-astro-cache')?.toString().toUpperCase();
        const route = routeLabel((req.url ?? '/').split('?')[0] ?? '/', locals, cacheHeader);
        const method = KNOWN_METHODS.has(req.method ?? '') ? req.method! : 'OTHER';
        requests.inc({ route, method, status: String(res.statusCode) });
        duration.observe({ route, method }, seconds);
        if (cacheHeader === 'HIT' || cacheHeader === 'MISS') cacheRequests.inc({ result: cacheHeader.toLowerCase() });
      });
    },
    serve(req, res) {
      const headers = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' };
      if (!bearerMatches(req.headers.authorization, token)) {
        res.writeHead(401, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'WWW-Authenticate': 'Bearer realm="metrics"' });
        res.end('The metrics need the token set in METRICS_TOKEN, sent as "Authorization: Bearer <token>".');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { ...headers, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Method not allowed.');
        return;
      }
      registry
        .metrics()
        .then((text) => {
          res.writeHead(200, { ...headers, 'Content-Type': registry.contentType });
          res.end(req.method === 'HEAD' ? undefined : text);
        })
        .catch((err: unknown) => {
          logger.error({ err }, 'metrics could not be collected');
          res.writeHead(500, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('The metrics could not be collected.');
        });
    },
  };
}

/** Called once by the server's start-up when METRICS_TOKEN is set. */
export function installMetrics(token: string, handle: DatabaseHandle) {
  if (Reflect.has(globalThis, METRICS_SYMBOL)) return;
  Reflect.set(globalThis, METRICS_SYMBOL, createMetrics(token, handle));
}
