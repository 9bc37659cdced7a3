// Load and faults (issue 19, decision 027): two built instances on a PostgreSQL server of the run's own,
// behind nginx with docs/deploy/nginx.conf (TLS, both upstreams), under mixed traffic from many visitors
// (each its own loopback address, so per-address limits behave as with real visitors): cached and uncached
// pages, sign-ins, free-audit requests, chat messages and page-view beacons. Meanwhile one instance is
// killed with kill -9 and started again, and PostgreSQL is stopped and started again. Afterwards every
// accepted audit request and chat message is looked up in the database: stored exactly once.
//
//   npm run load:faults                     200 visitors for 60 s (after npx astro build)
//   npm run load:faults -- --seconds 20 --connections 40
//   npm run load:faults -- --logs /tmp/lf     also keeps each instance's output and nginx's error log there
//
// Exit code 1 when a rule does not hold: a 5xx other than the outage's 503 with Retry-After (or nginx's
// 502 for a write in flight to the killed instance, which nginx must not repeat), an accepted write lost
// or stored twice, or an instance that does not come back. Needs Debian's nginx and PostgreSQL binaries.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import pg from 'pg';
import { findProgram, freePort, startNginx, startSite, waitFor } from '../tests/support/front-proxy.mjs';
import { canRunThrowawayPostgres, createThrowawayPostgres } from '../tests/support/throwaway-postgres.ts';

const KINDS = ['cached page', 'uncached page', 'sign-in', 'audit request', 'chat message', 'beacon'];
/** How often each kind is sent, in order (a visit is mostly page views). */
const WEIGHTS = [0.4, 0.15, 0.1, 0.1, 0.1, 0.15];

const percentile = (sorted, p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function pickKind() {
  let r = Math.random();
  for (let k = 0; k < KINDS.length; k++) {
    r -= WEIGHTS[k];
    if (r < 0) return KINDS[k];
  }
  return KINDS[0];
}

/** One HTTPS request through nginx; resolves with what came back (status 0: the connection failed). */
function send(agent, port, origin, { method, path: pathname, body, headers = {} }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = https.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path: pathname,
        timeout: 30_000,
        headers: {
          origin,
          'sec-fetch-site': 'same-origin',
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], ms: performance.now() - started }));
        res.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
      },
    );
    let timedOut = false;
    req.on('timeout', () => {
      timedOut = true;
      req.destroy(new Error('timeout'));
    });
    req.on('error', () => resolve({ status: 0, timedOut, ms: performance.now() - started }));
    req.end(payload);
  });
}

/** The n-th request of visitor `v`: what it is, and what proves it was stored (audit email, chat text). */
function requestOf(kind, v, n, run) {
  const mark = `lf-${run}-${v}-${n}`;
  switch (kind) {
    case 'cached page':
      return { method: 'GET', path: '/' };
    case 'uncached page':
      // A record nobody has: looked up in the database and answered with the whole 404 page, never stored.
      // (An invented query string is the cached page itself: the route cache keys on the parameters pages read.)
      return { method: 'GET', path: `/service/${mark}` };
    case 'sign-in':
      return { method: 'POST', path: '/api/auth/sign-in/email', body: { email: `lf-nobody-${v}@example.com`, password: 'not-the-password-1' } };
    case 'audit request':
      return {
        method: 'POST',
        path: '/api/audit-requests',
        body: { fullName: `Load Visitor ${v}`, email: `${mark}@example.com`, businessName: `Clinic ${v}`, businessType: 'clinic', goals: ['more-leads'], consent: true },
        proof: `${mark}@example.com`,
      };
    case 'chat message':
      return { method: 'POST', path: '/api/chat/messages', body: { body: `${mark} what do you automate?` }, proof: `${mark} what do you automate?` };
    default:
      return {
        method: 'POST',
        path: '/api/visits',
        body: JSON.stringify({ p: '/services', r: '', w: 390 }),
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' },
      };
  }
}

/**
 * The run. `log` gets progress lines. Resolves with the tallies, or `{ skipped }` where nginx or the
 * PostgreSQL binaries are missing.
 * @param {{ seconds?: number, connections?: number, distDir?: string, log?: (line: string) => void }} [options]
 */
export async function loadAndFaults({ seconds = 60, connections = 200, distDir = 'dist', logs, log = () => {} } = {}) {
  if (!findProgram('nginx')) return { skipped: 'nginx is not installed' };
  if (!canRunThrowawayPostgres()) return { skipped: 'no PostgreSQL server binaries (initdb)' };
  const run = randomBytes(3).toString('hex');
  const cluster = createThrowawayPostgres(await freePort());
  const stops = [() => cluster.remove()];
  try {
    const [portA, portB, nginxPort] = [await freePort(), await freePort(), await freePort()];
    const origin = `https://127.0.0.1:${nginxPort}`;
    const env = { DATABASE_URL: cluster.url, AUTH_SECRET: randomBytes(32).toString('base64url'), SITE_URL: origin, TRUSTED_PROXY_IP_HEADER: 'x-real-ip' };
    if (logs) fs.mkdirSync(logs, { recursive: true });
    const logFile = (name) => (logs ? path.join(logs, name) : undefined);
    const sites = { a: await startSite({ env, distDir, port: portA, logFile: logFile('instance-a.log') }), b: await startSite({ env, distDir, port: portB, logFile: logFile('instance-b.log') }) };
    stops.push(() => sites.a.stop(), () => sites.b.stop());
    const nginx = await startNginx({ backendPorts: [portA, portB], port: nginxPort, keepErrorLogAs: logFile('nginx-error.log') });
    stops.push(() => nginx.stop());
    const ca = fs.readFileSync(nginx.cert);
    log(`two instances on PostgreSQL behind nginx ${origin}; ${connections} visitors for ${seconds} s`);

    const results = [];
    const accepted = { 'audit request': new Set(), 'chat message': new Set() };
    const events = {};
    const started = performance.now();
    const at = () => performance.now() - started;
    const end = seconds * 1000;
    let stopping = false;

    const visitor = async (v) => {
      // Its own address (nginx passes it on as X-Real-IP) and its own chat identity.
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca, localAddress: `127.3.${Math.floor(v / 250)}.${(v % 250) + 1}` });
      const chatVisitor = randomBytes(16).toString('hex');
      for (let n = 0; !stopping; n++) {
        const kind = pickKind();
        const request = requestOf(kind, v, n, run);
        if (kind === 'chat message') request.headers = { 'x-chat-visitor': chatVisitor };
        const t = at();
        const answer = await send(agent, nginxPort, origin, request);
        results.push({ kind, method: request.method, t, ...answer });
        if (request.proof && answer.status === 200) accepted[kind].add(request.proof);
      }
      agent.destroy();
    };

    const faults = (async () => {
      await sleep(end * 0.25);
      events.killedAt = at();
      await sites.a.kill();
      log(`instance A killed (kill -9) at ${(events.killedAt / 1000).toFixed(1)} s`);
      await sleep(2000);
      sites.a = await startSite({ env, distDir, port: portA, logFile: logFile('instance-a.log') });
      events.rejoinedAt = at();
      log(`instance A started again, ready at ${(events.rejoinedAt / 1000).toFixed(1)} s`);
      await sleep(Math.max(0, end * 0.55 - at()));
      events.databaseStoppedAt = at();
      cluster.stop();
      log(`PostgreSQL stopped at ${(events.databaseStoppedAt / 1000).toFixed(1)} s`);
      await sleep(1000);
      events.readyWhileDown = (await fetch(`${sites.b.base}/readyz`).catch(() => ({ status: 0 }))).status;
      await sleep(4000);
      cluster.start();
      events.databaseStartedAt = at();
      log(`PostgreSQL started again at ${(events.databaseStartedAt / 1000).toFixed(1)} s`);
      await waitFor(async () => (await fetch(`${sites.b.base}/readyz`)).ok && (await fetch(`${sites.a.base}/readyz`)).ok, { timeoutMs: 30_000, what: 'both instances ready again' });
      events.recoveredAt = at();
    })();

    const visitors = Array.from({ length: connections }, (_, v) => visitor(v));
    await sleep(end);
    stopping = true;
    await Promise.all(visitors);
    await faults;

    // Every accepted write, looked up: stored once; nothing accepted is missing.
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    const stored = {
      'audit request': (await client.query(`select email as proof, count(*)::int as n from audit_requests where email like $1 group by email`, [`lf-${run}-%`])).rows,
      'chat message': (await client.query(`select body as proof, count(*)::int as n from chat_messages where author = 'visitor' and body like $1 group by body`, [`lf-${run}-%`])).rows,
    };
    await client.end();
    const writes = Object.fromEntries(
      Object.entries(stored).map(([kind, rows]) => {
        const counts = new Map(rows.map((r) => [r.proof, r.n]));
        const acceptedSet = accepted[kind];
        return [
          kind,
          {
            accepted: acceptedSet.size,
            lost: [...acceptedSet].filter((p) => !counts.has(p)).length,
            storedTwice: rows.filter((r) => r.n > 1).length,
            // Stored although the answer never arrived (cut by the kill or the outage): not lost, not accepted.
            storedUnanswered: rows.filter((r) => !acceptedSet.has(r.proof)).length,
          },
        ];
      }),
    );

    const outage = [events.databaseStoppedAt, (events.recoveredAt ?? end) + 1000];
    const kill = [events.killedAt, (events.killedAt ?? 0) + 3000];
    // Whether a request was waiting for its answer during [from, to]: under load an answer may take seconds,
    // so a request sent before a fault can be one of its casualties.
    const overlaps = (r, [from, to]) => from !== undefined && r.t <= to && r.t + r.ms >= from - 500;
    const unexpected = results.filter((r) => {
      if (r.status !== 0 && r.status < 500) return false;
      if (r.status === 503 && r.retryAfter && overlaps(r, outage)) return false; // failing fast, as it should
      // A write in flight to the killed instance: nginx never repeats it (the visitor is told it failed).
      if ((r.status === 502 || r.status === 0) && r.method === 'POST' && overlaps(r, kill)) return false;
      if (r.status === 0 && overlaps(r, outage)) return false;
      if (r.timedOut) return false; // counted on their own: no answer is not an error answer
      return true;
    });
    const latencies = results.filter((r) => r.status > 0).map((r) => r.ms).sort((x, y) => x - y);
    const byKind = Object.fromEntries(
      KINDS.map((kind) => {
        const of = results.filter((r) => r.kind === kind);
        /** @type {Record<string, number>} */
        const statuses = {};
        for (const r of of) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        const ms = of.filter((r) => r.status > 0).map((r) => r.ms).sort((x, y) => x - y);
        return [kind, { requests: of.length, statuses, p99: Math.round(percentile(ms, 99)) }];
      }),
    );
    return {
      seconds,
      connections,
      requests: results.length,
      rps: Math.round(results.length / seconds),
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      outage503: results.filter((r) => r.status === 503 && r.retryAfter).length,
      killed502: results.filter((r) => r.status === 502).length,
      unexpected5xx: unexpected.length,
      /** No answer within the client's 30 s (an overloaded machine), outside the faults. */
      timedOut: results.filter((r) => r.timedOut).length,
      unexpectedSample: unexpected.slice(0, 5).map((r) => `${r.kind} ${r.status} at ${(r.t / 1000).toFixed(1)} s`),
      /** The unexpected ones by kind, status and second of the run, for finding their cause. */
      unexpectedBySecond: Object.entries(
        unexpected.reduce((acc, r) => {
          const key = `${r.kind} ${r.status} @${Math.floor(r.t / 1000)}s`;
          acc[key] = (acc[key] ?? 0) + 1;
          return acc;
        }, /** @type {Record<string, number>} */ ({})),
      ).map(([key, n]) => `${key} ×${n}`),
      readyWhileDown: events.readyWhileDown,
      recoveredInMs: events.recoveredAt !== undefined ? Math.round(events.recoveredAt - events.databaseStartedAt) : undefined,
      rejoined: events.rejoinedAt !== undefined,
      writes,
      byKind,
    };
  } finally {
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
  }
}

/** Whether the run kept every rule. */
export function loadFaultsHeld(r) {
  if (!r || r.skipped) return false;
  const writes = Object.values(r.writes);
  return r.unexpected5xx === 0 && r.timedOut === 0 && r.rejoined && r.readyWhileDown === 503 && r.recoveredInMs !== undefined && writes.every((w) => w.lost === 0 && w.storedTwice === 0) && writes.some((w) => w.accepted > 0);
}

/** Rows for `npm run bench`'s table. */
export function loadFaultsRows(r, mark) {
  const label = '(r) load and faults: 2 instances behind nginx, kill -9 one, restart PostgreSQL';
  const target = '0 unexpected 5xx, 0 lost or doubled writes, both back';
  if (!r || r.skipped) return [[label, r?.skipped ?? 'n/a', target, mark(false)]];
  const w = r.writes;
  const result = `${r.requests} requests (${r.rps}/s, p99 ${r.p99} ms); 5xx: ${r.unexpected5xx} unexpected, ${r.outage503} outage 503, ${r.killed502} kill 502; ${r.timedOut} timed out; audits ${w['audit request'].accepted} accepted/${w['audit request'].lost} lost/${w['audit request'].storedTwice} twice; chat ${w['chat message'].accepted}/${w['chat message'].lost}/${w['chat message'].storedTwice}; recovered in ${r.recoveredInMs} ms`;
  return [[label, result, target, mark(loadFaultsHeld(r))]];
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith(path.join('bench', 'load-faults.mjs'))) {
  const args = new Map();
  const argv = process.argv.slice(2).filter((a) => a !== '--');
  for (let i = 0; i < argv.length; i += 2) args.set(argv[i].replace(/^--/, ''), argv[i + 1]);
  const r = await loadAndFaults({
    seconds: Number(args.get('seconds') ?? 60),
    connections: Number(args.get('connections') ?? 200),
    distDir: args.get('dist') ?? 'dist',
    logs: args.get('logs'),
    log: (m) => process.stderr.write(`load-faults: ${m}\n`),
  });
  console.log(JSON.stringify({ ...r, held: loadFaultsHeld(r) }, null, 2));
  process.exit(r.skipped || loadFaultsHeld(r) ? 0 : 1);
}

