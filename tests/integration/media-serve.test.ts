import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/client';
import { MediaError, processImage } from '../../src/server/media/process';
import { IMMUTABLE_CACHE_CONTROL, mediaResponse } from '../../src/server/media/serve';
import { storeImage } from '../../src/server/media/store';
import { freshDatabase } from '../support/db';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2553e0' } }).png().toBuffer();

const get = (file: string | undefined, headers: Record<string, string> = {}, method = 'GET') =>
  mediaResponse(file, new Request(`http://localhost/media/${file ?? ''}`, { method, headers }));

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

  it('answers 503 (retry), not 500, when the database cannot be read', async () => {
    const stored = await storeImage(await png(50, 50));
    await handle.close();
    const res = await get(`${stored.id}.webp`);
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('5');
    handle = await freshDatabase();
  });
});
