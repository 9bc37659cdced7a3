import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/client';
import { mediaCache } from '../../src/server/media/cache';
import { mediaFastPath, type MediaFastAnswer } from '../../src/server/media/fast-path';
import { MediaError, processImage } from '../../src/server/media/process';
import { findMedia } from '../../src/server/media/repository';
import { IMMUTABLE_CACHE_CONTROL, mediaResponse } from '../../src/server/media/serve';
import { storeImage } from '../../src/server/media/store';
import { freshDatabase } from '../support/db';
import { photoJpeg } from '../support/image-files';

// A small media cache (the least the setting allows), so a few photos fill it.
vi.hoisted(() => {
  process.env.MEDIA_CACHE_BYTES = '1048576';
});

// Every database read of an image goes through findMedia: counting its calls counts the reads.
vi.mock('../../src/server/media/repository', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/media/repository')>();
  return { ...real, findMedia: vi.fn(real.findMedia) };
});
const reads = () => vi.mocked(findMedia).mock.calls.length;

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2553e0' } }).png().toBuffer();

const get = (file: string | undefined, headers: Record<string, string> = {}, method = 'GET') =>
  mediaResponse(file, new Request(`http://localhost/media/${file ?? ''}`, { method, headers }));

/** What server.mjs would answer without entering Astro (undefined: it hands the request on). */
const fast = (file: string, ifNoneMatch?: string, https = false) => mediaFastPath(`/media/${file}`, ifNoneMatch, https);

/** Headers as sorted lowercase pairs, from a Response or from the fast path's raw list. */
const headerPairs = (from: Response | MediaFastAnswer) => {
  const pairs = from instanceof Response ? [...from.headers] : Array.from({ length: from.headers.length / 2 }, (_, i) => [from.headers[2 * i]!.toLowerCase(), from.headers[2 * i + 1]!]);
  return pairs.sort(([a], [b]) => a!.localeCompare(b!));
};

/** The middleware's security headers and Vary, which the fast path must send by itself. */
const SECURITY_HEADERS = ['content-security-policy', 'cross-origin-opener-policy', 'permissions-policy', 'referrer-policy', 'x-content-type-options', 'x-frame-options', 'vary'];

describe('image processing', () => {
  it('resizes to fit, re-encodes as WebP and names the file by the hash of its bytes', async () => {
    const img = await processImage(await png(3200, 1000));
    expect([img.width, img.height]).toEqual([1600, 500]);
    expect((await sharp(img.data).metadata()).format).toBe('webp');
    expect(img.id).toBe(createHash('sha256').update(img.data).digest('hex').slice(0, 32));
    expect(img.url).toBe(`/media/${img.id}.webp`);
  });

  it('never enlarges a small image', async () => {
    const img = await processImage(await png(300, 200));
    expect([img.width, img.height]).toEqual([300, 200]);
  });

  it('rejects files that do not decode as images, SVG and empty files, with a code', async () => {
    const attempts: [Uint8Array, string][] = [
      [Buffer.from('GIF89a but really just text'), 'not-an-image'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'), 'unsupported-format'],
      [new Uint8Array(), 'empty'],
      [(await png(400, 400)).subarray(0, 200), 'not-an-image'],
    ];
    for (const [bytes, code] of attempts) {
      const error = await processImage(bytes).catch((e: unknown) => e);
      expect(error, code).toBeInstanceOf(MediaError);
      expect((error as MediaError).code).toBe(code);
    }
  });
});

describe('GET /media/{id}.webp', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await freshDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(() => {
    vi.mocked(findMedia).mockClear();
  });

  it('serves stored bytes with the type, an ETag and a one-year immutable cache lifetime', async () => {
    const stored = await storeImage(await png(640, 360), { alt: 'Blue' });
    const res = await get(`${stored.id}.webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/webp');
    expect(res.headers.get('Cache-Control')).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(IMMUTABLE_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('ETag')).toBe(`"${stored.id}"`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.byteLength).toBe(stored.size);
    expect(createHash('sha256').update(body).digest('hex').slice(0, 32)).toBe(stored.id);
  });

  it('answers 304 without a body when the browser already has it, and HEAD without a body', async () => {
    const stored = await storeImage(await png(100, 100));
    const revalidated = await get(`${stored.id}.webp`, { 'If-None-Match': `W/"other", "${stored.id}"` });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    const head = await get(`${stored.id}.webp`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Length')).toBe(String(stored.size));
    expect(await head.text()).toBe('');
  });

  it('answers 404 for unknown and malformed names, never caching the miss', async () => {
    for (const file of [`${'0'.repeat(32)}.webp`, `${'A'.repeat(32)}.webp`, 'abc.webp', `${'0'.repeat(32)}.png`, '../../etc/passwd', '', undefined]) {
      const res = await get(file);
      expect(res.status, String(file)).toBe(404);
      expect(res.headers.get('Cache-Control')).toBe('no-store');
    }
  });

  it('serves 400 and 800 px wide variants, immutable, with their own ETag; never wider than the original', async () => {
    const stored = await storeImage(await png(1200, 675));
    for (const width of [400, 800]) {
      const res = await get(`${stored.id}-w${width}.webp`);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('image/webp');
      expect(res.headers.get('Cache-Control')).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(res.headers.get('ETag')).toBe(`"${stored.id}-w${width}"`);
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('Content-Length')).toBe(String(body.byteLength));
      const meta = await sharp(body).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, Math.round((675 * width) / 1200)]);
      expect(body.byteLength).toBeLessThan(stored.size);
    }
    // Asked again (the cache), the same bytes.
    const again = Buffer.from(await (await get(`${stored.id}-w400.webp`)).arrayBuffer());
    expect((await sharp(again).metadata()).width).toBe(400);
    expect((await get(`${stored.id}-w400.webp`, { 'If-None-Match': `"${stored.id}-w400"` })).status).toBe(304);

    const small = await storeImage(await png(300, 200));
    const notEnlarged = await sharp(Buffer.from(await (await get(`${small.id}-w800.webp`)).arrayBuffer())).metadata();
    expect([notEnlarged.width, notEnlarged.height]).toEqual([300, 200]);
  });

  it('answers 404 for widths that are not offered', async () => {
    const stored = await storeImage(await png(600, 400));
    for (const file of [`${stored.id}-w401.webp`, `${stored.id}-w0.webp`, `${stored.id}-w.webp`, `${stored.id}-w99999999.webp`, `${'0'.repeat(32)}-w400.webp`]) {
      const res = await get(file);
      expect(res.status, file).toBe(404);
    }
  });

  it('answers a browser that holds the file 304 from the URL alone: no database read, today\'s headers', async () => {
    const stored = await storeImage(await png(120, 80));
    vi.mocked(findMedia).mockClear();
    for (const [file, ifNoneMatch] of [
      [`${stored.id}.webp`, `"${stored.id}"`],
      [`${stored.id}-w400.webp`, `W/"${stored.id}-w400"`],
      [`${stored.id}-w800.webp`, `"other", "${stored.id}-w800"`],
    ] as const) {
      const res = await get(file, { 'If-None-Match': ifNoneMatch });
      expect(res.status, file).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('Cache-Control')).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(res.headers.get('ETag')).toBe(ifNoneMatch.match(/"[^"]+"$/)![0]);
      expect(res.headers.get('Content-Type')).toBe('image/webp');
      for (const name of SECURITY_HEADERS) expect(res.headers.has(name), name).toBe(true);
      // server.mjs answers it the same way, before Astro.
      const early = fast(file, ifNoneMatch)!;
      expect(early.status).toBe(304);
      expect(early.body).toBeUndefined();
      expect(headerPairs(early)).toEqual(headerPairs(res));
    }
    expect(reads()).toBe(0);
  });

  it('never confirms that an image exists to a client that does not hold it: `*` needs a read, and an unknown id is a 404', async () => {
    const unknown = `${'0'.repeat(31)}1.webp`;
    expect(fast(unknown, '*')).toBeUndefined();
    expect((await get(unknown, { 'If-None-Match': '*' })).status).toBe(404);
    expect(fast(unknown)).toBeUndefined();
    expect((await get(unknown)).status).toBe(404);
    const stored = await storeImage(await png(90, 60));
    expect((await get(`${stored.id}.webp`, { 'If-None-Match': '*' })).status).toBe(304);
    // A client that names the hash holds those bytes already: its 304 tells it nothing new.
    expect(fast(unknown, `"${'0'.repeat(31)}1"`)?.status).toBe(304);
  });

  it('reads a file once, then serves it from memory: the fast path sends the same bytes and headers as the route', async () => {
    const stored = await storeImage(await photoJpeg(400, 300));
    vi.mocked(findMedia).mockClear();
    expect(fast(`${stored.id}.webp`), 'not read yet').toBeUndefined();
    const first = await get(`${stored.id}.webp`);
    const firstBody = Buffer.from(await first.arrayBuffer());
    for (let i = 0; i < 3; i++) expect(Buffer.from(await (await get(`${stored.id}.webp`)).arrayBuffer()).equals(firstBody)).toBe(true);
    // The variants are made from the original in memory: no second read.
    const variants = new Map<string, { res: Response; body: Buffer }>();
    for (const file of [`${stored.id}-w400.webp`, `${stored.id}-w800.webp`, `${stored.id}-w400.webp`]) {
      const res = await get(file);
      variants.set(file, { res, body: Buffer.from(await res.arrayBuffer()) });
    }
    expect(reads()).toBe(1);

    for (const [file, { res, body }] of [[`${stored.id}.webp`, { res: first, body: firstBody }] as const, ...variants]) {
      const hit = fast(file)!;
      expect(hit.status, file).toBe(200);
      expect(Buffer.from(hit.body!).equals(body), file).toBe(true);
      expect(headerPairs(hit), file).toEqual(headerPairs(res));
      for (const name of SECURITY_HEADERS) expect(res.headers.has(name), name).toBe(true);
      // Over HTTPS the middleware adds HSTS; so does the fast path.
      const overTls = headerPairs(fast(file, undefined, true)!);
      expect(overTls).toContainEqual(['strict-transport-security', 'max-age=63072000; includeSubDomains']);
      expect(overTls.length).toBe(headerPairs(hit).length + 1);
    }
    expect(reads()).toBe(1);
  });

  it('lets concurrent requests for a file that is not in memory share one database read', async () => {
    const stored = await storeImage(await photoJpeg(300, 200));
    vi.mocked(findMedia).mockClear();
    const files = [...Array(8).fill(`${stored.id}.webp`), ...Array(6).fill(`${stored.id}-w400.webp`), ...Array(6).fill(`${stored.id}-w800.webp`)] as string[];
    const answers = await Promise.all(files.map((file) => get(file)));
    expect(answers.map((r) => r.status)).toEqual(files.map(() => 200));
    const lengths = new Set(await Promise.all(answers.slice(0, 8).map(async (r) => (await r.arrayBuffer()).byteLength)));
    expect([...lengths]).toEqual([stored.size]);
    expect(reads()).toBe(1);
  });

  it('holds no more than MEDIA_CACHE_BYTES: the least recently used photos leave, one over a quarter of it is never kept', async () => {
    const cache = mediaCache();
    expect(cache.store.maxBytes).toBe(1_048_576);
    const photos = [];
    for (let i = 0; i < 9; i++) photos.push(await storeImage(await photoJpeg(560 + i * 8, 380)));
    expect(photos.reduce((sum, p) => sum + p.size, 0), 'the photos together are more than the budget').toBeGreaterThan(1_048_576);
    for (const photo of photos) {
      expect((await get(`${photo.id}.webp`)).status).toBe(200);
      expect(cache.store.bytes).toBeLessThanOrEqual(cache.store.maxBytes);
    }
    expect(fast(`${photos.at(-1)!.id}.webp`)?.status).toBe(200);
    expect(fast(`${photos[0]!.id}.webp`), 'the oldest is gone').toBeUndefined();
    vi.mocked(findMedia).mockClear();
    expect((await get(`${photos[0]!.id}.webp`)).status).toBe(200);
    expect(reads(), 'read again from the database').toBe(1);

    const large = await storeImage(await photoJpeg(1000, 667));
    expect(large.size).toBeGreaterThan(cache.maxEntryBytes);
    expect((await get(`${large.id}.webp`)).status).toBe(200);
    expect(fast(`${large.id}.webp`)).toBeUndefined();
    expect(cache.store.bytes).toBeLessThanOrEqual(cache.store.maxBytes);
  });

  it('answers 503 (retry), not 500, when the database cannot be read', async () => {
    const stored = await storeImage(await png(50, 50));
    await handle.close();
    const res = await get(`${stored.id}.webp`);
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('5');
    handle = await freshDatabase();
  });
});
