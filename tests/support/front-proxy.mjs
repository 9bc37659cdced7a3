// The real proxies of docs/deploy (Varnish, nginx) started in front of built site instances, for the specs
// and the bench that prove them (docs/decisions/024). Plain Node: Playwright specs and bench/*.mjs import it.
// Everything runs on loopback, in a scratch folder, and is stopped by stop().
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';

const root = path.resolve(import.meta.dirname, '../..');
export const DEPLOY_DIR = path.join(root, 'docs', 'deploy');

/** The program's path, or undefined when it is not installed (Debian keeps daemons in /usr/sbin). */
export function findProgram(name) {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin']) {
    const file = path.join(dir, name);
    if (dir && fs.existsSync(file)) return file;
  }
  return undefined;
}

/**
 * A loopback port nothing listens on. FREE_PORT_RANGE=45300-45399 keeps a run inside a range (machines
 * shared by several runs); unset, the system picks one.
 */
/** @returns {Promise<number>} */
export async function freePort() {
  const range = /^(\d+)-(\d+)$/.exec(process.env.FREE_PORT_RANGE ?? '');
  const candidates = range ? shuffled(Number(range[1]), Number(range[2])) : [0];
  for (const candidate of candidates) {
    const port = await new Promise((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(undefined));
      probe.listen(candidate, '127.0.0.1', () => {
        const { port: taken } = probe.address();
        probe.close(() => resolve(taken));
      });
    });
    if (port) return port;
  }
  throw new Error(`no free port in ${process.env.FREE_PORT_RANGE}`);
}

function shuffled(from, to) {
  const ports = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  for (let i = ports.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [ports[i], ports[j]] = [ports[j], ports[i]];
  }
  return ports;
}

export async function waitFor(check, { timeoutMs = 60_000, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function stopProcess(child, graceMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Waits until `check` passes for a process just started; when it exits first (`exitMessage` says how) or
 * never gets there, it is stopped and the error thrown, so no test leaves it running.
 * @param {import('node:child_process').ChildProcess} child
 * @param {() => string} exitMessage
 * @param {() => Promise<boolean>} check
 * @param {{ timeoutMs?: number, what?: string }} options
 */
async function untilReady(child, exitMessage, check, options) {
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(exitMessage());
      return check();
    }, options);
  } catch (err) {
    await stopProcess(child);
    throw err;
  }
}

/** Output kept for the error message when a process does not come up. */
function captured(child) {
  let text = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (d) => (text = (text + d).slice(-4000)));
  return () => text;
}

/**
 * One built site instance (server.mjs, as production starts it). With no DATABASE_URL in `env` it gets a
 * fresh PGlite data folder with the demo content; with one, the caller's PostgreSQL database.
 */
/**
 * `logFile`: everything the instance prints is also appended there (`captured` keeps only the tail), for
 * finding out afterwards why an instance closed connections or died.
 * @param {{ env?: Record<string, string>, distDir?: string, port?: number, logFile?: string }} [options]
 */
export async function startSite({ env = {}, distDir = 'dist', port, logFile } = {}) {
  if (!fs.existsSync(path.join(root, distDir, 'server', 'entry.mjs'))) throw new Error(`no build in ${distDir}/ (run npx astro build)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-front-site-'));
  port ??= await freePort();
  const siteEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: `http://127.0.0.1:${port}`,
    ASTRO_TELEMETRY_DISABLED: '1',
    LOG_LEVEL: 'warn',
    APP_DIST_DIR: distDir,
    ...env,
  };
  if (!env.DATABASE_URL) delete siteEnv.DATABASE_URL;
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env: siteEnv, encoding: 'utf8' });
  if (migrate.status !== 0) throw new Error(`migration failed: ${migrate.stderr}`);
  const child = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env: { ...siteEnv, ...SERVER_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = captured(child);
  if (logFile) {
    const log = fs.createWriteStream(logFile, { flags: 'a' });
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (d) => log.write(d));
    child.once('exit', (code, signal) => log.end(`[exited: code ${code}, signal ${signal}]\n`));
  }
  const base = `http://127.0.0.1:${port}`;
  await untilReady(child, () => `site exited with ${child.exitCode}: ${output()}`, async () => (await fetch(`${base}/readyz`)).ok, { what: `the site on port ${port}` });
  return {
    port: /** @type {number} */ (port),
    base,
    dataDir,
    output,
    /** kill -9: the instance vanishes mid-whatever, as in a crash. */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      await stopProcess(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Varnish with docs/deploy/varnish.vcl unchanged; only agency-backends.vcl is written for these instances
 * (the shipped one, its ports replaced, and with one instance its second backend left out).
 */
/** @param {{ backendPorts: number[], port?: number }} options */
export async function startVarnish({ backendPorts, port }) {
  const varnishd = findProgram('varnishd');
  if (!varnishd) throw new Error('varnishd is not installed (apt-get install varnish)');
  port ??= await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-varnish-'));
  fs.writeFileSync(path.join(dir, 'agency-backends.vcl'), backendsVcl(backendPorts));
  const child = spawn(
    varnishd,
    [
      '-F',
      // No privilege separation: the tests run as whoever runs them, root in CI or not.
      '-j', 'none',
      '-a', `127.0.0.1:${port}`,
      '-f', path.join(DEPLOY_DIR, 'varnish.vcl'),
      '-p', `vcl_path=${dir}:${DEPLOY_DIR}`,
      '-n', path.join(dir, 'work'),
      '-s', 'malloc,64m',
      '-T', 'none',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = captured(child);
  const base = `http://127.0.0.1:${port}`;
  // Healthy once a backend probe passed: the page comes from the site, not a 503.
  await untilReady(child, () => `varnishd exited with ${child.exitCode}: ${output()}`, async () => (await fetch(`${base}/healthz`)).ok, {
    timeoutMs: 30_000,
    what: 'varnish and a healthy backend',
  });
  return {
    port: /** @type {number} */ (port),
    base,
    output,
    async stop() {
      await stopProcess(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function backendsVcl(ports) {
  const shipped = fs.readFileSync(path.join(DEPLOY_DIR, 'agency-backends.vcl'), 'utf8');
  const backend = /backend site1 \{[\s\S]*?\n\}\n/.exec(shipped)?.[0];
  if (!backend) throw new Error('docs/deploy/agency-backends.vcl has no "backend site1 { … }" block');
  const backends = ports.map((p, i) => backend.replace('site1', `site${i + 1}`).replace('.port = "4321"', `.port = "${p}"`)).join('\n');
  const adds = ports.map((_, i) => `  site.add_backend(site${i + 1});`).join('\n');
  return shipped
    .replace(/backend site1 \{[\s\S]*?\n\}\n\nbackend site2 \{[\s\S]*?\n\}\n/, backends)
    .replace(/( {2}site\.add_backend\(site\d\);\n)+/, `${adds}\n`);
}

/**
 * nginx with docs/deploy/nginx.conf: TLS on `port` with a self-signed certificate made here, in front of
 * `backendPorts`. The shipped file is used as it is, with only its addresses, ports and file paths
 * replaced, inside a minimal main configuration (the one Debian ships holds the same http-level lines).
 */
/** @param {{ backendPorts: number[], port?: number, keepErrorLogAs?: string }} options  keepErrorLogAs: copy of nginx's error log, made when it stops */
export async function startNginx({ backendPorts, port, keepErrorLogAs }) {
  const nginx = findProgram('nginx');
  if (!nginx) throw new Error('nginx is not installed (apt-get install nginx)');
  const openssl = findProgram('openssl');
  if (!openssl) throw new Error('openssl is not installed');
  port ??= await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-nginx-'));
  const cert = path.join(dir, 'site.crt');
  const key = path.join(dir, 'site.key');
  const made = spawnSync(openssl, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const shipped = fs.readFileSync(path.join(DEPLOY_DIR, 'nginx.conf'), 'utf8');
  const site = shipped
    .replace(/ {4}server 127\.0\.0\.1:4321[^\n]*\n {4}server 127\.0\.0\.1:4322[^\n]*\n/, backendPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;\n`).join(''))
    .replaceAll('listen 443 ssl http2;', `listen 127.0.0.1:${port} ssl http2;`)
    .replaceAll('listen [::]:443 ssl http2;', '')
    // The port-80 redirect block: the test speaks https only.
    .replace(/server \{\n {4}listen 80;[\s\S]*?\n\}\n/, '')
    .replaceAll('/etc/ssl/certs/agency-site.crt', cert)
    .replaceAll('/etc/ssl/private/agency-site.key', key);
  // Whole port numbers: a random port such as 43215 is not the shipped 4321 left behind (a flake of CI's run).
  if (site === shipped || /listen 80\b|:432[12]\b|\/etc\/ssl/.test(site)) throw new Error('docs/deploy/nginx.conf no longer has the lines this test replaces');
  fs.writeFileSync(path.join(dir, 'site.conf'), site);
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      "events { worker_connections 4096; }",
      'http {',
      "  log_format upstreams '$request_method $uri $status $upstream_addr';",
      `  access_log ${dir}/access.log upstreams;`,
      `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
      `  include ${dir}/site.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(nginx, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = captured(child);
  const base = `https://127.0.0.1:${port}`;
  await untilReady(
    child,
    () => `nginx exited with ${child.exitCode}: ${output()} ${readIfThere(path.join(dir, 'error.log'))}`,
    () =>
      new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
    { timeoutMs: 20_000, what: 'nginx' },
  );
  return {
    port: /** @type {number} */ (port),
    base,
    cert,
    output,
    accessLog: () => readIfThere(path.join(dir, 'access.log')),
    async stop() {
      await stopProcess(child);
      if (keepErrorLogAs) fs.writeFileSync(keepErrorLogAs, readIfThere(path.join(dir, 'error.log')));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const readIfThere = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

/**
 * The first verified account is the admin: signs one up through `base` and follows the emailed link from
 * the instance's outbox; returns the session cookie.
 */
/**
 * `origin`: the site's public origin when `base` is not it (an instance asked directly, behind its proxy).
 * @returns {Promise<string>}
 */
export async function firstAdminCookie(base, dataDir, origin = base) {
  const email = `front-admin-${Date.now()}@example.com`;
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: 'front-password-1', firstName: 'Front', lastName: 'Admin' }),
  });
  if (!res.ok) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const outbox = path.join(dataDir, 'outbox');
  let cookie;
  await waitFor(async () => {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
    for (const f of files) {
      const mail = fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = /https?:\/\/[^\s"<>]*verify-email\?token=[^\s"<>]+/.exec(mail)?.[0];
      if (!link) continue;
      const verified = await fetch(link.replace(/^https?:\/\/[^/]+/, base), { redirect: 'manual' });
      const cookies = verified.headers.getSetCookie().map((c) => c.split(';')[0]);
      if (cookies.length === 0) throw new Error('verification set no session cookie');
      cookie = cookies.join('; ');
      return true;
    }
    return false;
  }, { timeoutMs: 20_000, what: 'the verification mail' });
  return /** @type {string} */ (cookie);
}

/**
 * Adds a FAQ as the admin, through `base`, as the admin's editor does (the Action over HTTP). `origin` is
 * the site's public origin when `base` is not it (an instance asked directly, behind its proxy).
 */
export async function addFaq(base, cookie, question, origin = base) {
  const res = await fetch(`${base}/_actions/admin.faqs.create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie },
    body: JSON.stringify({ fields: { question, answer: '<p>Answered through the admin.</p>' } }),
  });
  if (!res.ok) throw new Error(`admin.faqs.create answered ${res.status}: ${await res.text()}`);
}

/**
 * Milliseconds from the end of the admin's write until `base` serves `path` with `text` in it, polling
 * every 10 ms (a visitor asking again and again), up to `timeoutMs`.
 */
export async function msUntilFresh(base, path, text, { since = performance.now(), timeoutMs = 10_000 } = {}) {
  for (;;) {
    const body = await (await fetch(`${base}${path}`)).text();
    const elapsed = performance.now() - since;
    if (body.includes(text)) return elapsed;
    if (elapsed > timeoutMs) throw new Error(`${path} still without "${text}" after ${Math.round(elapsed)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
