/**
 * The websites the audit crawls in tests (issue 22): one plain-http server on 127.0.0.1 that answers as
 * several sites by the Host header, each under a `.test` name (reserved, so never a real host). Tests reach
 * them through the safe fetch's test network (`useTestNetwork`, NODE_ENV=test) and a built server under e2e
 * through its fixture hosts (`useFixtureHosts`).
 *  - good.test: a small clinic's site done right (compressed, cached, described, a contact form, booking,
 *    chat, robots.txt and sitemap), 20 files of its own on the home page plus the chat's external script;
 *  - bad.test: every defect the checks look for;
 *  - redirect.test, slow.test, bomb.test, big.test, pdf.test, error.test, missing.test, evil.test: the
 *    hostile and broken answers the crawler must survive;
 *  - hog.test: pages whose scripts attack the browser Lighthouse loads them in (memory, processor time).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { createGzip, gzipSync } from 'node:zlib';

export const AUDIT_FIXTURE_HOSTS = ['good.test', 'bad.test', 'redirect.test', 'slow.test', 'bomb.test', 'big.test', 'pdf.test', 'error.test', 'missing.test', 'evil.test', 'hog.test'] as const;
export type AuditFixtureHost = (typeof AUDIT_FIXTURE_HOSTS)[number];

export interface FixtureRequest {
  host: string;
  method: string;
  path: string;
  userAgent: string | undefined;
}

export interface AuditFixtureSites {
  port: number;
  /** "http://good.test:54321/contact" */
  url(host: AuditFixtureHost, path?: string): string;
  /** Every request the sites received, oldest first (clear it with `requests.length = 0`). */
  requests: FixtureRequest[];
  close(): Promise<void>;
}

/** The files good.test's home page loads from its own host: 16 images, favicon, stylesheet, 2 scripts. */
export const GOOD_HOME_OWN_FILES = 20;
export const CRISP_SCRIPT = 'https://client.crisp.chat/l.js';

interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  path: string;
  /** "http://good.test:54321", as the client asked. */
  origin: string;
  /** The server's own port, for redirects that point back at it by address. */
  port: number;
}
type Site = (exchange: Exchange) => void | Promise<void>;

interface SendOptions {
  status?: number;
  headers?: Record<string, string>;
  /** gzip when the client accepts it. */
  compress?: boolean;
}

function send({ req, res }: Exchange, type: string, body: string | Buffer, { status = 200, headers = {}, compress = false }: SendOptions = {}): void {
  let payload = typeof body === 'string' ? Buffer.from(body) : body;
  const encoding: Record<string, string> = {};
  if (compress && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    payload = gzipSync(payload);
    Object.assign(encoding, { 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
  }
  res.writeHead(status, { 'content-type': type, 'content-length': String(payload.length), ...headers, ...encoding }).end(payload);
}

const HTML = 'text/html; charset=utf-8';
const notFound = (exchange: Exchange) => send(exchange, HTML, '<!doctype html><html lang="en"><title>Not found</title><h1>Not found</h1></html>', { status: 404 });
function redirect({ res }: Exchange, status: number, location: string): void {
  res.writeHead(status, { location }).end();
}

/** A file of `size` bytes that starts like the real format. */
const fileOf = (magic: string, size: number) => Buffer.concat([Buffer.from(magic, 'latin1'), Buffer.alloc(Math.max(0, size - magic.length), 0x2a)]);
const WEBP = fileOf('RIFF\x00\x00\x00\x00WEBPVP8 ', 3_000);
const ICO = fileOf('\x00\x00\x01\x00\x01\x00', 1_150);
const PNG_400_KB = fileOf('\x89PNG\r\n\x1a\n', 400 * 1024);
const JPEG = fileOf('\xff\xd8\xff\xe0', 20_000);
/** An uncompressed photo as a camera or scanner saves it (about 800×600 pixels at 24 bits). */
const BMP_1_4_MB = fileOf('BM', 1_400 * 1024);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

// ---------------------------------------------------------------------------------------------------------
// good.test

const CACHED = { 'cache-control': 'public, max-age=31536000, immutable' };
const GOOD_HEADERS = {
  'cache-control': 'public, max-age=300',
  // HSTS only means something over https: the fixture is plain http.
  'content-security-policy': "default-src 'self'; script-src 'self' https://client.crisp.chat; img-src 'self' data:; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'x-frame-options': 'DENY',
};

const GOOD_IMAGES = [
  ['/img/hero.webp', 'A physiotherapist treating a runner’s knee'],
  ...[1, 2, 3, 4, 5, 6].map((n) => [`/img/treatment-${n}.webp`, `Treatment room ${n}`]),
  ...[1, 2, 3, 4].map((n) => [`/img/clinic-${n}.webp`, `The clinic, view ${n}`]),
  ...[1, 2, 3].map((n) => [`/img/patient-${n}.webp`, `Patient ${n}`]),
] as const;

interface GoodPage {
  path: string;
  title: string;
  description: string;
  h1: string;
  main: string;
  head?: string;
}

function goodDocument(origin: string, page: GoodPage): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${page.title}</title>
  <meta name="description" content="${page.description}">
  <link rel="canonical" href="${origin}${page.path}">
  <meta property="og:type" content="website">
  <meta property="og:title" content="${page.title}">
  <meta property="og:description" content="${page.description}">
  <meta property="og:url" content="${origin}${page.path}">
  <meta property="og:image" content="${origin}/img/hero.webp">
  <meta name="twitter:card" content="summary_large_image">
  <meta name="twitter:title" content="${page.title}">
  <meta name="twitter:description" content="${page.description}">
  <link rel="icon" href="/favicon.ico">
  <link rel="stylesheet" href="/css/site.css">
  <script src="/js/app.js" defer></script>
  <script src="/js/booking.js" defer></script>
  ${page.head ?? ''}
</head>
<body>
  <header>
    <a href="/"><img src="/img/logo.webp" alt="Riverside Physio" width="160" height="40"></a>
    <nav><a href="/services">Services</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav>
  </header>
  <main>
    <h1>${page.h1}</h1>
    ${page.main}
  </main>
  <footer>
    <p>Riverside Physio, 12 Canal Wharf, Leeds LS11 5PS · <a href="tel:+441130000000">0113 000 0000</a> · <a href="mailto:hello@riverside-physio.example">hello@riverside-physio.example</a></p>
    <a href="/privacy">Privacy</a>
  </footer>
</body>
</html>`;
}

const LOCAL_BUSINESS = {
  '@context': 'https://schema.org',
  '@type': 'LocalBusiness',
  name: 'Riverside Physio',
  telephone: '+44 113 000 0000',
  address: { '@type': 'PostalAddress', streetAddress: '12 Canal Wharf', addressLocality: 'Leeds', postalCode: 'LS11 5PS', addressCountry: 'GB' },
  openingHours: 'Mo-Fr 08:00-19:00',
};

const goodHome = (origin: string): GoodPage => ({
  path: '/',
  title: 'Riverside Physio – Physiotherapy and Sports Massage in Leeds',
  description: 'Physiotherapy, sports massage and back pain treatment in central Leeds. Same-week appointments, evening slots and online booking.',
  h1: 'Physiotherapy that gets you moving again',
  head: `<script src="${CRISP_SCRIPT}" async></script>
  <script type="application/ld+json">${JSON.stringify({ ...LOCAL_BUSINESS, url: `${origin}/` })}</script>`,
  main: `
    <img src="${GOOD_IMAGES[0][0]}" alt="${GOOD_IMAGES[0][1]}" width="1200" height="600">
    <p>Chartered physiotherapists for sports injuries, back and neck pain. <a href="https://calendly.com/riverside-physio/first-visit">Book your first visit</a> online.</p>
    <section><h2>Treatments</h2>
      ${GOOD_IMAGES.slice(1, 7).map(([src, alt]) => `<img src="${src}" alt="${alt}" width="400" height="300" loading="lazy">`).join('\n      ')}
    </section>
    <section><h2>The clinic</h2>
      ${GOOD_IMAGES.slice(7, 11).map(([src, alt]) => `<img src="${src}" alt="${alt}" width="400" height="300" loading="lazy">`).join('\n      ')}
      <img srcset="/img/map.webp 1x, /img/map@2x.webp 2x" alt="Map to the clinic" width="400" height="300" loading="lazy">
    </section>
    <section class="testimonials"><h2>What our patients say</h2>
      ${GOOD_IMAGES.slice(11)
        .map(([src, alt], i) => `<blockquote><img src="${src}" alt="${alt}" width="64" height="64" loading="lazy"><p>“Back running in six weeks.” – Patient ${i + 1}</p></blockquote>`)
        .join('\n      ')}
    </section>
    <section><h2>Tips in your inbox</h2>
      <form action="/newsletter" method="post"><label>Email <input type="email" name="email" required></label><button>Subscribe</button></form>
    </section>`,
});

const GOOD_PAGES: GoodPage[] = [
  {
    path: '/contact',
    title: 'Contact Riverside Physio – Leeds Physiotherapy Clinic',
    description: 'Call, email or send us a message and we will get back to you the same working day. Or book online with Calendly.',
    h1: 'Contact us',
    main: `<form action="/contact/send" method="post">
      <label>Name <input name="name" required></label>
      <label>Email <input type="email" name="email" required></label>
      <label>Message <textarea name="message"></textarea></label>
      <button>Send</button>
    </form>
    <p>Prefer to book straight away? <a href="https://calendly.com/riverside-physio/first-visit">Book an appointment</a>.</p>`,
  },
  {
    path: '/services',
    title: 'Services – Physiotherapy, Sports Massage, Back Pain | Riverside',
    description: 'Physiotherapy, sports massage, back and neck pain treatment and rehabilitation after surgery, with prices and session lengths.',
    h1: 'Our services',
    main: '<ul><li>Physiotherapy</li><li>Sports massage</li><li>Back and neck pain</li></ul>',
  },
  {
    path: '/about',
    title: 'About Riverside Physio – Our Team of Chartered Physiotherapists',
    description: 'Meet the team of chartered physiotherapists behind Riverside Physio, treating Leeds patients since 2009.',
    h1: 'About us',
    main: '<p>Four chartered physiotherapists, one clinic by the canal.</p>',
  },
  {
    path: '/privacy',
    title: 'Privacy Policy – Riverside Physio, Leeds Physiotherapy Clinic',
    description: 'How Riverside Physio collects, uses and protects the personal information of patients and visitors to this website.',
    h1: 'Privacy policy',
    main: '<p>We keep your details only to arrange your treatment.</p>',
  },
];

const THANKS: GoodPage = {
  path: '/contact/send',
  title: 'Thank you – Riverside Physio, Physiotherapy in Central Leeds',
  description: 'Thank you for your message: a member of the Riverside Physio team will get back to you the same working day.',
  h1: 'Thank you',
  main: '<p>We will be in touch soon.</p>',
};

function goodSite(exchange: Exchange): void {
  const { path, origin } = exchange;
  const page = path === '/' ? goodHome(origin) : [...GOOD_PAGES, THANKS, { ...THANKS, path: '/newsletter' }].find((p) => p.path === path);
  if (page) return send(exchange, HTML, goodDocument(origin, page), { headers: GOOD_HEADERS, compress: true });
  if (/^\/img\/[\w@-]+\.webp$/.test(path)) return send(exchange, 'image/webp', WEBP, { headers: CACHED });
  if (path === '/favicon.ico') return send(exchange, 'image/x-icon', ICO, { headers: CACHED });
  if (path === '/css/site.css') return send(exchange, 'text/css', 'body{font-family:system-ui,sans-serif;margin:0}\n'.repeat(200), { headers: CACHED, compress: true });
  if (path === '/js/app.js' || path === '/js/booking.js') return send(exchange, 'text/javascript', 'document.documentElement.classList.add("js");\n'.repeat(150), { headers: CACHED, compress: true });
  if (path === '/robots.txt') return send(exchange, 'text/plain', `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`, { compress: true });
  if (path === '/sitemap.xml') {
    const urls = ['/', ...GOOD_PAGES.map((p) => p.path)].map((p) => `  <url><loc>${origin}${p}</loc></url>`).join('\n');
    return send(exchange, 'application/xml', `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`, { compress: true });
  }
  notFound(exchange);
}

// ---------------------------------------------------------------------------------------------------------
// bad.test: no title, a 900-character description, three h1s, no lang, no viewport, images without alt, a
// 400 KB PNG, a 1.4 MB BMP, render-blocking scripts, no compression or cache headers, broken links (the
// "Contact us" button at the top among them), noindex, robots.txt shutting everything out, no form, no
// booking or chat, JSON-LD that does not parse.

const BAD_HOME = `<!doctype html>
<html>
<head>
  <meta charset="utf-8">
  <meta name="description" content="${'Cheap plumber Leeds emergency plumbing boiler repair. '.repeat(20).slice(0, 900)}">
  <meta name="robots" content="noindex, nofollow">
  <link rel="stylesheet" href="/css/style.css">
  <script src="/js/jquery.js"></script>
  <script src="/js/slider.js"></script>
  <script type="application/ld+json">{ "@context": "https://schema.org", "@type": "LocalBusiness", "name": "Bad Plumbing", }</script>
</head>
<body>
  <p><a href="/contact" class="button">Contact us</a></p>
  <h1>Welcome</h1>
  <h1>Plumbing</h1>
  <h1>Call us</h1>
  <img src="/img/banner.png">
  <img src="/img/van.jpg">
  <img src="/img/team.bmp">
  <p><a href="/about">About</a> <a href="/old-page">Our old page</a> <a href="/prices-2019">Prices</a></p>
</body>
</html>`;

function badSite(exchange: Exchange): void {
  const { path } = exchange;
  if (path === '/') return send(exchange, 'text/html', BAD_HOME);
  if (path === '/about') return send(exchange, 'text/html', '<html><body><h1>About</h1><a href="/">Home</a> <a href="/team">Team</a></body></html>');
  if (path === '/img/banner.png') return send(exchange, 'image/png', PNG_400_KB);
  if (path === '/img/van.jpg') return send(exchange, 'image/jpeg', JPEG);
  if (path === '/img/team.bmp') return send(exchange, 'image/bmp', BMP_1_4_MB);
  if (path === '/css/style.css') return send(exchange, 'text/css', 'body { margin: 0 }\n'.repeat(500));
  if (path === '/js/jquery.js' || path === '/js/slider.js') return send(exchange, 'application/javascript', 'var x = 1;\n'.repeat(8_000));
  if (path === '/robots.txt') return send(exchange, 'text/plain', 'User-agent: *\nDisallow: /\n');
  notFound(exchange);
}

// ---------------------------------------------------------------------------------------------------------
// redirect.test: a chain, a loop, and redirects to this machine by address and by name, and to the cloud
// metadata address; /links, a page linking to the chain and to the metadata redirect.

function redirectSite(exchange: Exchange): void {
  const { path, port } = exchange;
  if (path === '/') return redirect(exchange, 301, '/a');
  if (path === '/a') return redirect(exchange, 302, '/b');
  if (path === '/b') return send(exchange, HTML, '<!doctype html><html lang="en"><head><title>Arrived</title></head><body><h1>Arrived</h1></body></html>');
  if (path === '/loop') return redirect(exchange, 302, '/loop2');
  if (path === '/loop2') return redirect(exchange, 302, '/loop');
  if (path === '/to-private') return redirect(exchange, 302, `http://127.0.0.1:${port}/`);
  if (path === '/to-localhost') return redirect(exchange, 302, `http://localhost:${port}/`);
  if (path === '/to-metadata') return redirect(exchange, 302, 'http://169.254.169.254/latest/meta-data/');
  if (path === '/links') return send(exchange, HTML, '<!doctype html><html lang="en"><head><title>Links</title></head><body><a href="/a">On</a> <a href="/to-metadata">Cloud</a></body></html>');
  notFound(exchange);
}

// ---------------------------------------------------------------------------------------------------------
// slow.test: an answer that never ends (one byte a second until the client goes), and a quick page that
// loads such files, for the audit's own time limit.

function drip({ res }: Exchange, type: string): void {
  res.writeHead(200, { 'content-type': type });
  res.write('<');
  const timer = setInterval(() => res.write(' '), 1000);
  res.on('close', () => clearInterval(timer));
}

export const SLOW_PAGE_FILES = 8;

function slowSite(exchange: Exchange): void {
  if (exchange.path === '/') return drip(exchange, HTML);
  if (exchange.path === '/page') {
    const images = Array.from({ length: SLOW_PAGE_FILES }, (_, i) => `<img src="/drip/${i}.webp" alt="">`).join('');
    return send(exchange, HTML, `<!doctype html><html lang="en"><head><title>Slow files</title></head><body><h1>Slow files</h1>${images}</body></html>`);
  }
  if (exchange.path.startsWith('/drip/')) return drip(exchange, 'image/webp');
  notFound(exchange);
}

// ---------------------------------------------------------------------------------------------------------
// bomb.test, big.test, pdf.test, error.test, missing.test

export const BOMB_DECODED_BYTES = 20 * 1024 * 1024;

/** 20 MB of spaces gzipped to about 20 KB, a megabyte at a time: the 20 MB never exist here. */
async function makeBomb(): Promise<Buffer> {
  const spaces = Buffer.alloc(1024 * 1024, 0x20);
  const gzipped: Buffer[] = [];
  const gzip = createGzip({ level: 9 });
  gzip.on('data', (chunk: Buffer) => gzipped.push(chunk));
  for (let written = 0; written < BOMB_DECODED_BYTES; written += spaces.length) {
    if (!gzip.write(spaces)) await once(gzip, 'drain');
  }
  gzip.end();
  await once(gzip, 'end');
  return Buffer.concat(gzipped);
}
/** Made once, when the sites start. */
let bomb: Promise<Buffer> | undefined;

async function bombSite(exchange: Exchange): Promise<void> {
  if (exchange.path !== '/') return notFound(exchange);
  send(exchange, HTML, await bomb!, { headers: { 'content-encoding': 'gzip' } });
}

export const BIG_PAGE_BYTES = 5 * 1024 * 1024;
export const MANY_ELEMENTS = 100_000;
let bigPage: Buffer | undefined;
let manyElements: Buffer | undefined;

function bigSite(exchange: Exchange): void {
  if (exchange.path === '/') {
    const paragraph = '<p>Plumbing, heating and boiler repairs across Leeds, any time of the day or night.</p>\n';
    bigPage ??= Buffer.from(
      `<!doctype html><html lang="en"><head><title>A very long page</title></head><body><h1>A very long page</h1>\n${paragraph.repeat(Math.ceil(BIG_PAGE_BYTES / paragraph.length))}</body></html>`,
    ).subarray(0, BIG_PAGE_BYTES);
    return send(exchange, HTML, bigPage);
  }
  if (exchange.path === '/many') {
    manyElements ??= Buffer.from(`<!doctype html><html lang="en"><head><title>Many elements</title></head><body><ul>${'<li>x</li>'.repeat(MANY_ELEMENTS - 6)}</ul></body></html>`);
    return send(exchange, HTML, manyElements);
  }
  notFound(exchange);
}

const pdfSite: Site = (exchange) => (exchange.path === '/' ? send(exchange, 'application/pdf', PDF) : notFound(exchange));
const errorSite: Site = (exchange) =>
  send(exchange, HTML, '<!doctype html><html lang="en"><head><title>Server error</title></head><body><h1>Internal Server Error</h1></body></html>', { status: 500 });
const missingSite: Site = notFound;

// ---------------------------------------------------------------------------------------------------------
// evil.test: markup and script in every field a report could show. The crawler keeps it as text; the
// inline script would set the flag below if anything ever ran it.

export const EVIL_SCRIPT = '<script>alert(1)</script>';
export const EVIL_ATTRIBUTE = '"><img src=x onerror=alert(1)>';
export const EVIL_RAN_FLAG = '__auditFixtureScriptRan';

const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const EVIL_HOME = `<!doctype html>
<html lang="en">
<head>
  <title>${EVIL_SCRIPT}</title>
  <meta name="description" content="${attribute(EVIL_ATTRIBUTE)}">
  <meta property="og:title" content="${attribute(EVIL_SCRIPT)}">
  <meta property="og:description" content="${attribute(EVIL_ATTRIBUTE)}">
  <meta property="og:image" content="javascript:alert(1)">
  <script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'LocalBusiness', name: EVIL_SCRIPT, telephone: EVIL_ATTRIBUTE }).replace(/</g, '\\u003c')}</script>
  <script>globalThis.${EVIL_RAN_FLAG} = true; alert(1)</script>
</head>
<body>
  <h1>${attribute(EVIL_SCRIPT)}</h1>
  <h2>${EVIL_ATTRIBUTE}</h2>
  <img src="/img/photo.webp" alt="${attribute(EVIL_ATTRIBUTE)}">
  <a href="javascript:alert(1)">${attribute(EVIL_SCRIPT)}</a>
  <a href=" JaVaScRiPt:alert(document.cookie)">Click</a>
  <a href="data:text/html,${encodeURIComponent(EVIL_SCRIPT)}">Data</a>
  <a href="/about">${attribute(EVIL_ATTRIBUTE)}</a>
  <form action="javascript:alert(1)"><input type="email" name="email"></form>
</body>
</html>`;

function evilSite(exchange: Exchange): void {
  if (exchange.path === '/') return send(exchange, HTML, EVIL_HOME);
  if (exchange.path === '/img/photo.webp') return send(exchange, 'image/webp', WEBP);
  if (exchange.path === '/about') return send(exchange, HTML, `<!doctype html><html lang="en"><head><title>${EVIL_SCRIPT}</title></head><body><h1>About</h1></body></html>`);
  notFound(exchange);
}

// ---------------------------------------------------------------------------------------------------------
// hog.test: an ordinary small page whose script attacks the browser that runs it. "/" allocates memory as
// fast as it can (32 MB at a time, every page of it touched so it is really held) up to HOG_CAP_MB, which
// only keeps a browser without bounds from taking the test machine down; "/spin" keeps HOG_SPINNERS
// threads busy for good. Both paint at once, so Lighthouse would go on measuring them.

export const HOG_CAP_MB = 3072;
export const HOG_SPINNERS = 4;

function hogDocument(title: string, script: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><meta name="description" content="A page that is heavier than it looks."></head>
<body><main><h1>${title}</h1><p>Bookings by phone only.</p></main><script>${script}</script></body></html>`;
}

const HOG_MEMORY = `const hoard = [];
(function grow() {
  if (hoard.length * 32 >= ${HOG_CAP_MB}) return;
  const block = new Uint8Array(32 * 1024 * 1024);
  for (let i = 0; i < block.length; i += 4096) block[i] = 1;
  hoard.push(block);
  setTimeout(grow, 0);
})();`;

const HOG_CPU = `const spin = URL.createObjectURL(new Blob(['for (;;) {}'], { type: 'text/javascript' }));
for (let i = 0; i < ${HOG_SPINNERS}; i++) new Worker(spin);`;

function hogSite(exchange: Exchange): void {
  if (exchange.path === '/') return send(exchange, HTML, hogDocument('Memory hog', HOG_MEMORY));
  if (exchange.path === '/spin') return send(exchange, HTML, hogDocument('Processor hog', HOG_CPU));
  notFound(exchange);
}

// ---------------------------------------------------------------------------------------------------------

const SITES: Record<AuditFixtureHost, Site> = {
  'good.test': goodSite,
  'bad.test': badSite,
  'redirect.test': redirectSite,
  'slow.test': slowSite,
  'bomb.test': bombSite,
  'big.test': bigSite,
  'pdf.test': pdfSite,
  'error.test': errorSite,
  'missing.test': missingSite,
  'evil.test': evilSite,
  'hog.test': hogSite,
};

const isFixtureHost = (host: string): host is AuditFixtureHost => (AUDIT_FIXTURE_HOSTS as readonly string[]).includes(host);

export async function startAuditFixtureSites(): Promise<AuditFixtureSites> {
  bomb ??= makeBomb();
  await bomb;
  let port = 0;
  const requests: FixtureRequest[] = [];
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const exchange: Exchange = { req, res, path: new URL(req.url ?? '/', 'http://fixture').pathname, origin: `http://${req.headers.host}`, port };
    requests.push({ host, method: req.method ?? '', path: exchange.path, userAgent: req.headers['user-agent'] });
    if (isFixtureHost(host)) void SITES[host](exchange);
    else send(exchange, 'text/plain', `No fixture site is called ${host}`, { status: 421 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (host, path = '/') => `http://${host}:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
