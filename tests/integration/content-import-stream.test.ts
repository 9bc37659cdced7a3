/**
 * A content file read as it streams in (the admin's import of a backup of any size up to the media quota):
 * images checked and staged on disk one at a time, the same all-or-nothing rules as a parsed file, and a
 * clear outcome for every kind of file that is not a content file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/client';
import { db } from '../../src/server/db';
import { findMedia } from '../../src/server/media/repository';
import { processImage } from '../../src/server/media/process';
import { listServices } from '../../src/server/modules/catalog/repository';
import { openMediaStaging, readContentFile, type MediaStaging } from '../../src/server/modules/content-transfer';
import { importContentBundleIn } from '../../src/server/modules/content-transfer/import';
import { BodyError } from '../../src/server/http/request-body';
import { freshDatabase } from '../support/db';
import { runNode } from '../support/run-process';

const root = path.resolve(import.meta.dirname, '../..');

let handle: DatabaseHandle;
let dataDir: string;
let staging: MediaStaging;
beforeEach(async () => {
  handle = await freshDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-stream-'));
  staging = await openMediaStaging(dataDir);
});
afterEach(async () => {
  await staging.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
  await handle.close();
});

const envelope = { format: 'agency-site-content', version: 1 } as const;

async function image(color: string, width = 64) {
  const png = await sharp({ create: { width, height: 36, channels: 3, background: color } }).png().toBuffer();
  const img = await processImage(png);
  return { id: img.id, contentType: 'image/webp' as const, width: img.width, height: img.height, alt: 'Swatch', data: img.data.toString('base64') };
}

/** The text as a body arriving in small pieces, as a slow upload does. */
function body(text: string | Uint8Array, chunk = 97): ReadableStream<Uint8Array> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += chunk)));
    },
  });
}

const read = (text: string | Uint8Array, options: { limit?: number; maxValues?: number } = {}) =>
  readContentFile(body(text), { limit: options.limit ?? 10_000_000, maxValues: options.maxValues ?? 1_000_000, staging });

const stagedFiles = () => fs.readdirSync(path.join(dataDir, 'import-staging')).flatMap((d) => fs.readdirSync(path.join(dataDir, 'import-staging', d)));

describe('a content file read as it streams in', () => {
  it('imports records and images, the images having waited on disk (owner-only) one file each', async () => {
    const [a, b] = [await image('#14b8a6'), await image('#2553e0')];
    const file = { ...envelope, services: [{ id: 's', name: 'S', picture: `/media/${a.id}.webp` }], media: [a, b] };
    const outcome = await read(JSON.stringify(file));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    // The parsed file keeps only the ids of its images; their bytes are in the staging folder.
    expect((outcome.file.json as { media: unknown[] }).media).toEqual([{ id: a.id }, { id: b.id }]);
    expect(stagedFiles().sort()).toEqual([a.id, b.id].sort());
    const root = path.join(dataDir, 'import-staging');
    const folder = path.join(root, fs.readdirSync(root)[0]!);
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(folder, a.id)).mode & 0o777).toBe(0o600);

    const result = await db().transaction((tx) => importContentBundleIn(tx, outcome.file.json, new Date(), outcome.file.media));
    expect(result).toMatchObject({ ok: true, summary: { services: 1, media: 2 } });
    expect((await findMedia(b.id))?.data.toString('base64')).toBe(b.data);
    expect((await listServices()).map((s) => s.picture)).toEqual([`/media/${a.id}.webp`]);

    await staging.dispose();
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('reports a bad image by its position with the other problems, and imports nothing', async () => {
    const [good, bad, third] = [await image('#14b8a6'), await image('#172554'), await image('#f59e0b')];
    const file = { ...envelope, services: [{ id: 's', name: '' }], media: [good, { ...bad, width: 65 }, { ...third, extra: 1 }, 'x'] };
    const outcome = await read(JSON.stringify(file));
    if (!outcome.ok) throw new Error(outcome.code);
    const result = await db().transaction((tx) => importContentBundleIn(tx, outcome.file.json, new Date(), outcome.file.media));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => p.path)).toEqual(['services[0].name', 'media[1]', 'media[2].extra', 'media[3]']);
    expect(!result.ok && result.problems[1]!.message).toBe('is 64×36 pixels, not 65×36 as stated');
    expect(await findMedia(good.id)).toBeUndefined();
    expect(await listServices()).toEqual([]);
  });

  it('finds a file with two images of one id, and a media section that is not a list', async () => {
    const a = await image('#14b8a6');
    const twice = await read(JSON.stringify({ ...envelope, media: [a, a] }));
    if (!twice.ok) throw new Error(twice.code);
    const result = await db().transaction((tx) => importContentBundleIn(tx, twice.file.json, new Date(), twice.file.media));
    expect(!result.ok && result.problems).toEqual([{ path: 'media[1].id', message: `id "${a.id}" is also used by media[0]` }]);

    const notAList = await read(JSON.stringify({ ...envelope, media: { a: 1 } }));
    if (!notAList.ok) throw new Error(notAList.code);
    const refused = await db().transaction((tx) => importContentBundleIn(tx, notAList.file.json, new Date(), notAList.file.media));
    expect(!refused.ok && refused.problems.map((p) => p.path)).toEqual(['media']);
  });

  it('stops counting at the value limit: many small objects are refused before they fill the memory', async () => {
    // The review's attack in small: a flood of tiny objects, not a few large strings.
    const flood = `{"format":"agency-site-content","version":1,"faqs":[${'{"a":1},'.repeat(5000)}{}]}`;
    expect(await read(flood, { maxValues: 1000 })).toEqual({ ok: false, code: 'TOO_MANY_VALUES', detail: 'more than 1,000 values' });
    // Long strings are one value each, whatever their length.
    const long = JSON.stringify({ ...envelope, siteContent: { siteName: 'x'.repeat(100_000) } });
    expect((await read(long, { maxValues: 10 })).ok).toBe(true);
  });

  it('refuses one huge string while it streams in, its memory bounded (issue 36: 510 MB peaked at 1.2 GB)', { timeout: 120_000 }, async () => {
    // In a process of its own, so that its RSS is the read's alone; the string is where the longest values
    // are allowed (an image's base64), 160 MiB of it.
    const run = await runNode(['--import', 'tsx', path.join(root, 'tests/support/read-huge-content-file.ts'), '160'], { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent' } });
    expect(run.code, run.stderr).toBe(0);
    const { outcome, sentMiB, rssGrowthMiB } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { outcome: unknown; sentMiB: number; rssGrowthMiB: number };
    expect(outcome).toEqual({ ok: false, code: 'VALUE_TOO_LONG', detail: 'a text value longer than 13,981,016 characters' });
    // Refused once past the longest value a content file has (an image's base64, 13.3 MiB), not at the end of the body.
    expect(sentMiB).toBeLessThan(16);
    // Holding the string whole took over 500 MiB here; its bounded pieces take a few tens.
    expect(rssGrowthMiB).toBeLessThan(96);
    // A field name or a number of any length is bounded the same way.
    expect(await read(`{"${'k'.repeat(5000)}":1}`)).toEqual({ ok: false, code: 'VALUE_TOO_LONG', detail: 'a field name longer than 1,000 characters' });
    expect(await read(`{"version":${'9'.repeat(500)}}`)).toEqual({ ok: false, code: 'VALUE_TOO_LONG', detail: 'a number longer than 100 characters' });
  });

  it('refuses a body past the limit while it streams in', async () => {
    const a = await image('#14b8a6');
    const text = JSON.stringify({ ...envelope, media: [a, a, a] });
    await expect(read(text, { limit: text.length - 1 })).rejects.toMatchObject({ code: 'REQUEST_TOO_LARGE' });
    await expect(read(text, { limit: text.length - 1 })).rejects.toBeInstanceOf(BodyError);
  });

  it('says plainly when the file is not a content file at all', async () => {
    expect(await read('')).toMatchObject({ ok: false, code: 'EMPTY_FILE' });
    expect(await read('{"format":')).toMatchObject({ ok: false, code: 'INVALID_JSON' });
    expect(await read('{"a":1}{"b":2}')).toMatchObject({ ok: false, code: 'INVALID_JSON' });
    expect(await read(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))).toEqual({ ok: false, code: 'INVALID_JSON', detail: 'it is not UTF-8 text' });
    expect(await read('{"format":"agency-site-content","__proto__":{"x":1}}')).toEqual({ ok: false, code: 'FORBIDDEN_KEY', detail: '__proto__' });
    expect(await read('{"services":[{"constructor":{}}]}')).toEqual({ ok: false, code: 'FORBIDDEN_KEY', detail: 'constructor' });
    expect(await read('{"media":[{"__proto__":{}}]}')).toEqual({ ok: false, code: 'FORBIDDEN_KEY', detail: '__proto__' });
    // A byte-order mark is what some editors save: still a content file.
    expect((await read(`\uFEFF${JSON.stringify(envelope)}`)).ok).toBe(true);
    // JSON that is not an object reaches the checks, which name what a content file is.
    const list = await read('[1,2]');
    expect(list.ok && list.file.json).toEqual([1, 2]);
  });

  it('a folder left by an import that died is removed by a later import once it is a day old', async () => {
    const root = path.join(dataDir, 'import-staging');
    const old = path.join(root, 'left-behind');
    fs.mkdirSync(old);
    const dayAgo = (Date.now() - 25 * 60 * 60_000) / 1000;
    fs.utimesSync(old, dayAgo, dayAgo);
    const other = await openMediaStaging(dataDir);
    expect(fs.existsSync(old)).toBe(false);
    // The import still running beside it keeps its folder.
    expect(fs.readdirSync(root)).toHaveLength(2);
    await other.dispose();
  });
});
