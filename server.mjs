// Production entry: check the port is free, open and migrate the database, warm the app up on a private
// loopback port, and only then listen for visitors — so the first visitor does not pay start-up, and a
// taken port, a failed migration or a locked data folder stops the process instead of serving errors.
//
// Request order: refuse methods the site does not serve → refuse malformed URLs → /metrics (when on) → media answers that need no
// database read → route-cache hits (stored with their full headers) → baseline security headers → refuse
// oversize bodies → built files from memory → Astro (middleware, pages, endpoints). See docs/decisions/002
// and 019.
import cluster from 'node:cluster';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { exitUnlessListenable, listenAddress, listenFailure } from './scripts/listen-address.mjs';
import { READY_MESSAGE } from './scripts/supervise.mjs';
import { runWorkers, workersOrExit } from './scripts/workers.mjs';

process.env.ASTRO_TELEMETRY_DISABLED = '1';
// WORKERS > 1 (PostgreSQL only): this process becomes the primary of that many server processes sharing
// the port (scripts/workers.mjs), each of which runs the rest of this file; the primary never gets past here.
if (cluster.isPrimary) {
  const workers = workersOrExit();
  if (workers > 1) {
    await exitUnlessListenable(listenAddress());
    await runWorkers({ count: workers });
  }
}
// Under the launcher's supervisor (scripts/supervise.mjs) an IPC channel tells it when the server listens.
// The channel must not keep the process alive, and a launcher killed without stopping the server first
// (kill -9) must not leave it holding the port and the data folder: then it stops as on SIGTERM.
// A cluster worker (WORKERS > 1) keeps its channel referenced: the primary answers its listen requests on it.
if (process.send) {
  if (!cluster.isWorker) process.channel?.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
// Before anything is loaded or opened: a taken port is one line, and DATA_DIR is left untouched.
const address = listenAddress();
await exitUnlessListenable(address);
// Migrations ship next to this file: the server may be started from any working directory.
process.env.MIGRATIONS_DIR ??= fileURLToPath(new URL('./drizzle', import.meta.url));

// APP_DIST_DIR lets tools serve a build made with `astro build --outDir <dir>` (default ./dist).
const distDir = new URL(`${process.env.APP_DIST_DIR ?? './dist'}/`.replace(/\/+$/, '/'), import.meta.url);
// The adapter runs in middleware mode: `handler` is Astro alone; files are served here.
const { handler, options } = await import(new URL('server/entry.mjs', distDir).href);

const siteIsHttps = (process.env.SITE_URL ?? '').startsWith('https://');

// Files and early refusals never reach Astro's middleware, so every response starts with these; the
// middleware's values replace them on rendered responses.
const BASELINE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
// A file opened directly (an SVG is a document that could run script) gets a script-free policy.
const FILE_CSP =
  "default-src 'self'; script-src 'none'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const HSTS = 'max-age=63072000; includeSubDomains';

// The adapter enforces the same limit only while a route reads the body; a declared oversize body is
// refused up front, before any route runs or buffers it.
const bodySizeLimit = Number(options.bodySizeLimit) > 0 ? Number(options.bodySizeLimit) : Infinity;

// ---- Built files (dist/client), held in memory: a few hundred KB, fixed for the life of the build. ----
const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest)|image\/svg)/;
const MAX_IN_MEMORY = 2 * 1024 * 1024;

function indexFiles(dir, prefix = '', files = new Map()) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') && entry.name !== '.well-known') continue;
    const abs = path.join(dir, entry.name);
    const urlPath = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      indexFiles(abs, urlPath, files);
      continue;
    }
    const stat = fs.statSync(abs);
    if (!entry.isFile() || stat.size > MAX_IN_MEMORY) continue;
    const body = fs.readFileSync(abs);
    const type = TYPES[path.extname(entry.name).toLowerCase()] ?? 'application/octet-stream';
    const gzip = COMPRESSIBLE.test(type) && body.length > 512 ? zlib.gzipSync(body, { level: 9 }) : undefined;
    files.set(urlPath, {
      body,
      gzip: gzip && gzip.length < body.length ? gzip : undefined,
      type,
      etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      lastModified: stat.mtime.toUTCString(),
      // Built assets have content hashes in their names: they never change, so browsers keep them a year.
      // Other public files (favicon) keep their name across deploys: revalidate after an hour.
      cacheControl: urlPath.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    });
  }
  return files;
}

const clientDir = fileURLToPath(new URL('client/', distDir));
const files = fs.existsSync(clientDir) ? indexFiles(clientDir) : new Map();

function serveFile(req, res, file) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Method not allowed.');
    return;
  }
  res.setHeader('Content-Security-Policy', FILE_CSP);
  res.setHeader('Cache-Control', file.cacheControl);
  res.setHeader('ETag', file.etag);
  res.setHeader('Last-Modified', file.lastModified);
  if (file.gzip) res.setHeader('Vary', 'Accept-Encoding');
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === file.etag)) {
    res.writeHead(304);
    res.end();
    return;
  }
  const gzip = file.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  const body = gzip ? file.gzip : file.body;
  res.writeHead(200, {
    'Content-Type': file.type,
    'Content-Length': body.length,
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

// ---- Route-cache hits, answered without entering Astro (src/server/cache/fast-path.ts). ----
const ROUTE_CACHE = Symbol.for('agency.routeCache');

/**
 * Raw header lists of a hit, built once per stored entry (entries never change once stored), and its
 * gzip body, made on the first hit from a browser that accepts it: a landing page of ~90 KB goes out as
 * ~15 KB. Single-use entries never pay for compression.
 */
const plainHeadersOf = new WeakMap();
const gzipOf = new WeakMap();

function cachedGzip(hit) {
  let gz = gzipOf.get(hit.headers);
  if (!gz) {
    const type = hit.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    const encoded = hit.headers.some(([k]) => k.toLowerCase() === 'content-encoding');
    const body = !encoded && hit.body.byteLength > 1024 && COMPRESSIBLE.test(type) ? zlib.gzipSync(hit.body, { level: 6 }) : null;
    gz = body ? { body, raw: [...hit.headers.flat(), 'X-Astro-Cache', 'HIT', 'Content-Encoding', 'gzip', 'Content-Length', String(body.length)] } : null;
    gzipOf.set(hit.headers, gz);
  }
  return gz;
}

function serveCacheHit(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const lookup = globalThis[ROUTE_CACHE];
  const hit = typeof lookup === 'function' ? lookup(req.url ?? '/') : undefined;
  if (!hit) return false;
  // The stored headers are the middleware's full set (security headers, Vary) — nothing to add.
  const gz = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? cachedGzip(hit) : null;
  if (gz) {
    res.writeHead(hit.status, gz.raw);
    res.end(req.method === 'HEAD' ? undefined : gz.body);
    return true;
  }
  let raw = plainHeadersOf.get(hit.headers);
  if (!raw) {
    raw = [...hit.headers.flat(), 'X-Astro-Cache', 'HIT', 'Content-Length', String(hit.body.byteLength)];
    plainHeadersOf.set(hit.headers, raw);
  }
  res.writeHead(hit.status, raw);
  res.end(req.method === 'HEAD' ? undefined : hit.body);
  return true;
}

// ---- Media that needs no database read: a 304 for an ETag the browser holds (the ETag is the content hash
// in the URL) and hot images from the media cache (src/server/media/fast-path.ts). Misses go to Astro.
const MEDIA_FAST_PATH = Symbol.for('agency.media');

function serveMedia(req, res, pathname) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const lookup = globalThis[MEDIA_FAST_PATH];
  const answer = typeof lookup === 'function' ? lookup(pathname, req.headers['if-none-match'], siteIsHttps || Boolean(req.socket.encrypted)) : undefined;
  if (!answer) return false;
  // The headers are the middleware's full set (security headers, Vary) — nothing to add.
  res.writeHead(answer.status, answer.headers);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
  return true;
}

const PLAIN_ERROR_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };

function plainError(res, status, text, extra = {}) {
  res.writeHead(status, { ...PLAIN_ERROR_HEADERS, ...extra });
  res.end(text);
}

const BASELINE_HEADERS_HTTPS = { ...BASELINE_HEADERS, 'Strict-Transport-Security': HSTS };
const baselineHeaders = (socket) => (siteIsHttps || socket.encrypted ? BASELINE_HEADERS_HTTPS : BASELINE_HEADERS);

function setBaselineHeaders(req, res) {
  for (const [name, value] of Object.entries(baselineHeaders(req.socket))) res.setHeader(name, value);
}

// ---- Methods: the adapter turns every request into a fetch Request, which throws on TRACE, TRACK and
// CONNECT (a 500), and no route serves methods beyond these. The rest are refused before anything runs.
const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const METHOD_NOT_ALLOWED = 'Method not allowed.';
const ALLOW = { Allow: [...SERVED_METHODS].join(', ') };

/** The same 405 written to the socket, for requests that never get a response object: CONNECT, and methods
 * Node's HTTP parser does not know. */
function refuseMethodOnSocket(socket) {
  const headers = { ...baselineHeaders(socket), ...PLAIN_ERROR_HEADERS, ...ALLOW, Connection: 'close', 'Content-Length': METHOD_NOT_ALLOWED.length };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${head}\r\n${METHOD_NOT_ALLOWED}`);
}

/** A well-formed request line whose method Node's parser does not know (TRACK, lowercase `get`, …). */
const UNKNOWN_METHOD_REQUEST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/1\.[01]\r?\n/;

// ---- Metrics (src/server/metrics, only when METRICS_TOKEN is set): every request is timed and counted under
// the route that answered it. Astro's middleware names its route pattern on the locals handed to it; what
// is answered here gets one of these labels. Without the token /metrics is an unknown page (404).
const METRICS = Symbol.for('agency.metrics');
const ROUTE_LABEL = Symbol.for('agency.routeLabel'); // src/server/metrics/route-label.ts

// ---- Shutdown (src/server/shutdown.ts): once it starts, answers close their connection.
let draining = false;

function listener(req, res) {
  const metrics = globalThis[METRICS];
  const locals = {};
  metrics?.track(req, res, locals);
  const answeredHere = (label) => {
    locals[ROUTE_LABEL] = label;
    return true;
  };
  if (draining) res.setHeader('Connection', 'close');
  if (!SERVED_METHODS.has(req.method)) {
    answeredHere('(refused)');
    setBaselineHeaders(req, res);
    plainError(res, 405, METHOD_NOT_ALLOWED, ALLOW);
    return;
  }
  let pathname;
  try {
    // A malformed percent-encoding (/%E0%A4%A) is the client's error: answer 400 before any router sees it.
    pathname = decodeURI((req.url ?? '/').split('?')[0]);
  } catch {
    answeredHere('(refused)');
    setBaselineHeaders(req, res);
    plainError(res, 400, 'Bad request.');
    return;
  }
  if (metrics && pathname === '/metrics') {
    answeredHere('/metrics');
    setBaselineHeaders(req, res);
    metrics.serve(req, res);
    return;
  }
  if (pathname.startsWith('/media/') && serveMedia(req, res, pathname)) return void answeredHere('(media)');
  if (serveCacheHit(req, res)) return void answeredHere('(route cache)');
  setBaselineHeaders(req, res);
  if (Number(req.headers['content-length'] ?? 0) > bodySizeLimit) {
    answeredHere('(refused)');
    plainError(res, 413, 'Request body too large.', { Connection: 'close' });
    return;
  }
  const file = files.get(pathname);
  if (file) {
    answeredHere('(static)');
    serveFile(req, res, file);
    return;
  }
  restoreCacheTag(res);
  handler(req, res, undefined, locals);
}

/**
 * Astro deletes Cache-Tag from every response it renders (it takes its cache provider for the CDN), but
 * Cloudflare purges by it: written back from Surrogate-Key, which the route cache sets alongside with the
 * same tags (src/server/cache/shared-cache.ts). Only responses that carry Surrogate-Key are touched.
 */
function restoreCacheTag(res) {
  const writeHead = res.writeHead;
  res.writeHead = function (status, ...rest) {
    const headers = rest.at(-1);
    const keys = headers && typeof headers === 'object' && !Array.isArray(headers) ? headers['surrogate-key'] : undefined;
    if (typeof keys === 'string' && !headers['cache-tag']) headers['cache-tag'] = keys.split(' ').join(',');
    return writeHead.call(this, status, ...rest);
  };
}

async function warmUp() {
  const probe = http.createServer((req, res) => handler(req, res));
  // exclusive: a worker's private port is its own, not one shared through the cluster's primary (whose
  // warm-up request could reach another worker and leave this one cold).
  await new Promise((resolve) => probe.listen({ port: 0, host: '127.0.0.1', exclusive: true }, resolve));
  const { port } = probe.address();
  try {
    for (const p of ['/readyz', '/']) {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      const body = await res.text();
      if (p === '/readyz' && res.status !== 200) throw new Error(body || `readyz answered ${res.status}`);
    }
  } finally {
    probe.closeAllConnections();
    await new Promise((resolve) => probe.close(resolve));
  }
}

try {
  await warmUp();
} catch (err) {
  console.error(`The server could not start: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}

// Slow-loris protection: a client gets 15 s to send its headers and 60 s for the whole request. Node only
// looks for expired requests every `connectionsCheckingInterval` (30 s by default, so a slow-header
// connection lived up to 45 s), and that interval is read only from the constructor's options.
const TIMEOUTS = { headersTimeout: 15_000, requestTimeout: 60_000, connectionsCheckingInterval: 1_000 };
const server =
  process.env.SERVER_CERT_PATH && process.env.SERVER_KEY_PATH
    ? https.createServer(
        { ...TIMEOUTS, key: fs.readFileSync(process.env.SERVER_KEY_PATH), cert: fs.readFileSync(process.env.SERVER_CERT_PATH) },
        listener,
      )
    : http.createServer(TIMEOUTS, listener);
// Oversize headers (over Node's 16 KB default) and garbage requests are answered without a stack trace.
server.on('clientError', (err, socket) => {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  if (err.code === 'HPE_INVALID_METHOD' && UNKNOWN_METHOD_REQUEST.test(err.rawPacket?.toString('latin1') ?? '')) {
    refuseMethodOnSocket(socket);
    return;
  }
  const status =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? '431 Request Header Fields Too Large'
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? '408 Request Timeout'
        : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
});
// Without a listener Node drops a CONNECT request's connection without an answer.
server.on('connect', (_req, socket) => refuseMethodOnSocket(socket));

// The port was free at start-up, but another program may have taken it during the warm-up.
server.once('error', async (err) => {
  console.error(listenFailure(err, address));
  await globalThis[Symbol.for('agency.closeDatabase')]?.().catch(() => {}); // src/server/db/index.ts
  process.exit(1);
});
// SIGTERM/SIGINT (src/server/shutdown.ts drives the order; the name is repeated there, keep both in step):
// stop accepting, let requests in flight finish, cut what is left at the bound.
const idle = new Promise((resolve) => server.once('close', resolve));
globalThis[Symbol.for('agency.httpDrain')] = {
  stopAccepting() {
    draining = true;
    server.close();
    // A keep-alive connection whose request finishes during the drain goes idle: close it then, not after
    // the keep-alive timeout.
    setInterval(() => server.closeIdleConnections(), 100).unref();
  },
  idle: () => idle,
  cutAll: () => server.closeAllConnections(),
};
server.listen(address.port, address.host, () => {
  const scheme = server instanceof https.Server ? 'https' : 'http';
  console.log(JSON.stringify({ level: 'info', msg: `Listening on ${scheme}://${address.host}:${address.port}` }));
  process.send?.(READY_MESSAGE);
});
