/** Speed: how long the home page takes to start, how much it and its files weigh, and how they are served. */
import type { CheckResult } from '../findings';
import type { FetchedResource, ResourceKind } from '../snapshot';
import { formatBytes, formatDuration, formatMs, KB, limitLines, MB, plural, quote } from '../text';
import { header, isSuccess, mediaType, withoutFragment, type AuditContext } from './context';
import { fail, pageCheck, pass, runCategory, skip, warn, type CheckDefinition, type Verdict } from './define';
import { attr } from './dom';
import { lighthouseSpeed } from './lighthouse';

/** pass below `good`, warn below `poor`, else fail. */
function byThreshold(value: number, good: number, poor: number, ...evidence: string[]): Verdict {
  if (value < good) return pass(...evidence);
  return value < poor ? warn(...evidence) : fail(...evidence);
}

/** What a visitor downloads for a file (the decoded size when the crawler did not see the wire size). */
const downloadBytes = (resource: FetchedResource) => resource.transferBytes || resource.bodyBytes;

/** "312 KB", or "at least 5 MB" for a file the crawler stopped reading. */
const sizeOf = (resource: FetchedResource) => `${resource.truncated ? 'at least ' : ''}${formatBytes(downloadBytes(resource))}`;

/** Every file fetched with success, once per address. */
function fetchedResources(ctx: AuditContext): FetchedResource[] {
  const byUrl = new Map<string, FetchedResource>();
  for (const resource of ctx.snapshot.resources) {
    if (isSuccess(resource) && !byUrl.has(resource.url)) byUrl.set(resource.url, resource);
  }
  return [...byUrl.values()];
}

/** The site's own files: the owner can change how those are served, not a widget provider's. */
const ownResources = (ctx: AuditContext, kinds: readonly ResourceKind[]) =>
  fetchedResources(ctx).filter((resource) => kinds.includes(resource.kind) && ctx.sameSite(resource.url));

const COMPRESSED = /\b(gzip|br|zstd|deflate)\b/i;
const TEXT_KINDS: readonly ResourceKind[] = ['script', 'style'];
const STATIC_KINDS: readonly ResourceKind[] = ['script', 'style', 'image', 'font'];
const SEVEN_DAYS = 7 * 86_400;

const ttfb = pageCheck({
  id: 'ttfb',
  title: 'The server starts answering quickly',
  why: 'Nothing appears on screen until the server starts answering; past a second or two, many visitors on phones give up and go back to Google.',
  fix: 'Turn on page caching (a caching plugin or your host\'s cache), or move to faster hosting or a CDN; a slow first answer usually means every page is rebuilt for every visitor.',
  topic: 'website-speed',
  judge(ctx) {
    const ms = ctx.snapshot.home.timeToFirstByteMs;
    return byThreshold(ms, 600, 1500, `The home page started answering after ${formatMs(ms)} (under 600 ms is good)`);
  },
});

const htmlSize = pageCheck({
  id: 'html-size',
  title: 'The page itself is light',
  why: 'A heavy page takes longer to arrive and to read on a phone, before any picture even starts loading.',
  fix: 'Remove page-builder leftovers, huge inline scripts or styles and pictures embedded as text; a typical home page is well under 100 KB of HTML.',
  topic: 'website-speed',
  judge(ctx) {
    const { home } = ctx.snapshot;
    const size = `${home.truncated ? 'more than ' : ''}${formatBytes(home.bodyBytes)}`;
    return byThreshold(home.bodyBytes, 100 * KB, 500 * KB, `The home page's HTML is ${size} (under 100 KB is good)`);
  },
});

const KIND_NAMES: Record<ResourceKind, [string, string]> = {
  image: ['image', 'images'],
  script: ['script', 'scripts'],
  style: ['stylesheet', 'stylesheets'],
  font: ['font', 'fonts'],
  other: ['other file', 'other files'],
};

const pageWeight = pageCheck({
  id: 'page-weight',
  title: 'The whole page downloads fast',
  why: 'Everything the home page loads (pictures, scripts, fonts) is downloaded on every first visit; on a phone connection every megabyte costs seconds.',
  fix: 'Shrink pictures to the size they are shown at, remove unused plugins, sliders and fonts; aim for under 1.5 MB in total.',
  topic: 'website-speed',
  judge(ctx) {
    const { home, resourcesSeen } = ctx.snapshot;
    const homeUrls = new Set([home.url, home.requestedUrl].map(withoutFragment));
    const files = fetchedResources(ctx).filter((resource) => homeUrls.has(withoutFragment(resource.pageUrl)));
    const byKind = new Map<ResourceKind, { count: number; bytes: number }>();
    for (const file of files) {
      const entry = byKind.get(file.kind) ?? { count: 0, bytes: 0 };
      entry.count += 1;
      entry.bytes += downloadBytes(file);
      byKind.set(file.kind, entry);
    }
    const htmlBytes = home.transferBytes || home.bodyBytes;
    const total = htmlBytes + files.reduce((sum, file) => sum + downloadBytes(file), 0);
    const parts = [`HTML ${formatBytes(htmlBytes)}`];
    for (const [kind, { count, bytes }] of byKind) {
      const [one, many] = KIND_NAMES[kind];
      parts.push(`${plural(count, one, many)} ${formatBytes(bytes)}`);
    }
    const partial = files.length < resourcesSeen;
    const evidence = [`The home page downloads ${partial ? 'at least ' : ''}${formatBytes(total)} (under 1.5 MB is good): ${parts.join(', ')}`];
    if (resourcesSeen > 0) evidence.push(`${files.length} of ${plural(resourcesSeen, 'referenced file')} fetched${partial ? '; the rest are not counted' : ''}`);
    return byThreshold(total, 1.5 * MB, 4 * MB, ...evidence);
  },
});

const compression = pageCheck({
  id: 'compression',
  title: 'Text files are sent compressed',
  why: 'Compression (gzip or Brotli) makes pages, scripts and styles three to five times smaller on the way to the visitor, for free.',
  fix: 'Turn on gzip or Brotli compression in the server or hosting panel (or a CDN such as Cloudflare does it for you).',
  topic: 'website-speed',
  judge(ctx) {
    const { home } = ctx.snapshot;
    const uncompressed: string[] = [];
    const htmlUncompressed = home.bodyBytes > KB && !COMPRESSED.test(header(home, 'content-encoding'));
    if (htmlUncompressed) uncompressed.push(`The home page (${formatBytes(home.bodyBytes)})`);
    const files = ownResources(ctx, TEXT_KINDS).filter((file) => file.bodyBytes > KB);
    for (const file of files) {
      if (!COMPRESSED.test(header(file, 'content-encoding'))) uncompressed.push(`${ctx.label(file.url)} (${formatBytes(file.bodyBytes)})`);
    }
    const judged = files.length + (home.bodyBytes > KB ? 1 : 0);
    if (judged === 0) return skip('No page or script/style file over 1 KB to judge');
    if (uncompressed.length === 0) return pass(`The home page and ${plural(files.length, 'script/style file')} of the site are sent compressed`);
    const evidence = [`Sent without compression: ${uncompressed.length} of ${plural(judged, 'text file')}`, ...limitLines(uncompressed)];
    return htmlUncompressed || uncompressed.length === judged ? fail(...evidence) : warn(...evidence);
  },
});

/** How long a browser may keep a file, from Cache-Control; 'immutable' counts as forever. */
function cacheLifetime(file: FetchedResource): { seconds: number; value: string } {
  const value = header(file, 'cache-control');
  if (/no-store|no-cache/i.test(value)) return { seconds: 0, value };
  if (/\bimmutable\b/i.test(value)) return { seconds: Infinity, value };
  const maxAge = /(?:^|[\s,])max-age\s*=\s*"?(\d+)/i.exec(value)?.[1];
  return { seconds: maxAge === undefined ? 0 : Number(maxAge), value };
}

const cacheHeaders = pageCheck({
  id: 'cache-headers',
  title: 'Browsers keep files between visits',
  why: 'When pictures, scripts and styles may be kept by the browser, a visitor\'s second page and next visit load almost instantly.',
  fix: 'Send "Cache-Control: max-age=31536000, immutable" for files whose names change when they change (most site builders do), or at least a week for the others.',
  topic: 'website-speed',
  judge(ctx) {
    const files = ownResources(ctx, STATIC_KINDS);
    if (files.length === 0) return skip("None of the site's own pictures, scripts, styles or fonts were fetched");
    const short: string[] = [];
    let uncachable = 0;
    for (const file of files) {
      const { seconds, value } = cacheLifetime(file);
      if (seconds >= SEVEN_DAYS) continue;
      const validated = Boolean(header(file, 'etag') || header(file, 'last-modified'));
      if (!validated && seconds === 0) uncachable += 1;
      const cache = value ? `Cache-Control: ${quote(value, 60)}${seconds > 0 ? ` (${formatDuration(seconds)})` : ''}` : 'no Cache-Control';
      short.push(`${ctx.label(file.url)}: ${cache}${validated ? ', can be revalidated' : ', not even an ETag or Last-Modified'}`);
    }
    if (short.length === 0) return pass(`All ${plural(files.length, 'file')} may be kept for 7 days or more`);
    const evidence = [`Kept for less than 7 days: ${short.length} of ${plural(files.length, 'file')}`, ...limitLines(short)];
    return uncachable > 0 ? fail(...evidence) : warn(...evidence);
  },
});

const images = (ctx: AuditContext) => fetchedResources(ctx).filter((resource) => resource.kind === 'image');

const largeImages = pageCheck({
  id: 'large-images',
  title: 'No oversized pictures',
  why: 'One picture straight from a camera or phone can weigh more than the rest of the page together and hold up everything else.',
  fix: 'Resize pictures to the largest size they are shown at (rarely over 2000 pixels wide) and compress them, for example with squoosh.app; under 300 KB each is a good target.',
  topic: 'website-speed',
  judge(ctx) {
    const all = images(ctx);
    if (all.length === 0) return skip('No pictures were fetched');
    const large = all.filter((image) => downloadBytes(image) > 300 * KB).sort((a, b) => downloadBytes(b) - downloadBytes(a));
    if (large.length === 0) return pass(`All ${plural(all.length, 'picture')} fetched are under 300 KB`);
    return fail(
      `Over 300 KB: ${large.length} of ${plural(all.length, 'picture')}`,
      ...limitLines(large.map((image) => `${sizeOf(image)} ${ctx.label(image.url)}`)),
    );
  },
});

/**
 * How a picture is stored, which decides what it costs a visitor: modern (WebP, AVIF, and SVG, which is
 * drawn rather than stored pixel by pixel), older compressed formats (JPEG, PNG, GIF, and icons), and
 * uncompressed or print formats (BMP, TIFF) that store every pixel and weigh many times a JPEG of the same
 * picture. 'unknown' for another picture type (image/heic …), 'untold' when neither the media type nor the
 * file name says what it is.
 */
type ImageFormatFamily = 'modern' | 'older' | 'uncompressed' | 'unknown' | 'untold';

const FORMAT_BY_SUBTYPE: Readonly<Record<string, ImageFormatFamily>> = {
  webp: 'modern',
  avif: 'modern',
  'svg+xml': 'modern',
  jpeg: 'older',
  jpg: 'older',
  pjpeg: 'older',
  png: 'older',
  apng: 'older',
  gif: 'older',
  'x-icon': 'older',
  'vnd.microsoft.icon': 'older',
  bmp: 'uncompressed',
  'x-bmp': 'uncompressed',
  'x-ms-bmp': 'uncompressed',
  tiff: 'uncompressed',
  'tiff-fx': 'uncompressed',
  'x-tiff': 'uncompressed',
  'x-portable-pixmap': 'uncompressed',
  'x-portable-bitmap': 'uncompressed',
  'x-portable-graymap': 'uncompressed',
  'x-portable-anymap': 'uncompressed',
  'x-targa': 'uncompressed',
  'x-tga': 'uncompressed',
};

const FORMAT_BY_EXTENSION: Readonly<Record<string, ImageFormatFamily>> = {
  webp: 'modern',
  avif: 'modern',
  svg: 'modern',
  jpg: 'older',
  jpeg: 'older',
  jpe: 'older',
  png: 'older',
  apng: 'older',
  gif: 'older',
  ico: 'older',
  bmp: 'uncompressed',
  dib: 'uncompressed',
  tif: 'uncompressed',
  tiff: 'uncompressed',
  ppm: 'uncompressed',
  pbm: 'uncompressed',
  pgm: 'uncompressed',
  pnm: 'uncompressed',
  tga: 'uncompressed',
};

/** Media types that say nothing about the format: the file name is asked instead. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/**
 * The picture's format family, by media type, else (no type, or a generic one) by the file extension;
 * undefined when the answer is not a picture at all (an HTML error page served for an image, say).
 */
function imageFormatOf(image: FetchedResource): { family: ImageFormatFamily; name: string } | undefined {
  const type = mediaType(image);
  if (!GENERIC_TYPES.has(type)) {
    if (!type.startsWith('image/')) return undefined;
    return { family: FORMAT_BY_SUBTYPE[type.slice('image/'.length)] ?? 'unknown', name: type };
  }
  const extension = /\.([a-z0-9]+)$/i.exec(withoutFragment(image.url).split('?')[0]!)?.[1]?.toLowerCase() ?? '';
  const family = FORMAT_BY_EXTENSION[extension];
  return family ? { family, name: `.${extension} file` } : { family: 'untold', name: 'a file of no known type' };
}

/** Older compressed formats are fine when small; above this they are worth converting. */
const OLDER_FORMAT_BOUND = 50 * KB;
/** Uncompressed pictures are only excusable as tiny ones (a 32×32 BMP is 4 KB). */
const UNCOMPRESSED_BOUND = 10 * KB;

const imageFormats = pageCheck({
  id: 'image-formats',
  title: 'Pictures use modern formats',
  why: 'WebP and AVIF pictures look the same as JPEG or PNG at a third to half of the size, so pages appear sooner; an uncompressed BMP or TIFF weighs many times more again.',
  fix: 'Serve large pictures as WebP or AVIF: most site builders and image plugins (or a CDN) convert them automatically.',
  topic: 'website-speed',
  judge(ctx) {
    const all = images(ctx);
    if (all.length === 0) return skip('No pictures were fetched');
    const judged = all.flatMap((image) => {
      const format = imageFormatOf(image);
      return format ? [{ image, format }] : [];
    });
    const line = ({ image, format }: (typeof judged)[number]) => `${sizeOf(image)} ${format.name} ${ctx.label(image.url)}`;
    const bySize = (a: (typeof judged)[number], b: (typeof judged)[number]) => downloadBytes(b.image) - downloadBytes(a.image);
    const uncompressed = judged.filter(({ image, format }) => format.family === 'uncompressed' && downloadBytes(image) > UNCOMPRESSED_BOUND).sort(bySize);
    const older = judged.filter(({ image, format }) => (format.family === 'older' || format.family === 'unknown') && downloadBytes(image) > OLDER_FORMAT_BOUND).sort(bySize);
    const count = plural(all.length, 'picture');
    if (uncompressed.length > 0) {
      return {
        ...fail(
          `Uncompressed pictures (BMP, TIFF) over 10 KB: ${uncompressed.length} of ${count}; each weighs many times a JPEG, let alone a WebP`,
          ...limitLines(uncompressed.map(line)),
          ...(older.length > 0 ? [`Also ${plural(older.length, 'older-format picture')} over 50 KB (could be WebP or AVIF)`, ...limitLines(older.map(line), 3)] : []),
        ),
        fix: 'Convert the listed pictures to WebP or AVIF (or at least JPEG) before uploading them; an image plugin or a CDN can convert the rest automatically.',
      };
    }
    if (older.length > 0) return warn(`Over 50 KB and not WebP or AVIF: ${older.length} of ${count}`, ...limitLines(older.map(line)));
    const big = judged.filter(({ image, format }) => format.family === 'modern' && downloadBytes(image) > OLDER_FORMAT_BOUND);
    const untold = judged.filter(({ image, format }) => format.family === 'untold' && downloadBytes(image) > OLDER_FORMAT_BOUND);
    // Said, not judged: a picture whose format neither its type nor its name tells.
    const notTold = untold.length > 0 ? [`The format of ${plural(untold.length, 'picture')} over 50 KB could not be told (no media type or known file name):`, ...limitLines(untold.map(line), 3)] : [];
    if (big.length === 0) return pass(`No picture over 50 KB in an older format, and none uncompressed (${count} fetched)`, ...notTold);
    return pass(`${big.length === 1 ? 'The picture' : `All ${big.length} pictures`} over 50 KB ${big.length === 1 ? 'is' : 'are'} WebP, AVIF or SVG (${count} fetched)`, ...notTold);
  },
});

const renderBlocking = pageCheck({
  id: 'render-blocking',
  title: 'Scripts do not hold up the page',
  why: 'A script in the page\'s head without "defer" or "async" stops the browser from showing anything until it is downloaded and run.',
  fix: 'Add "defer" to the listed script tags (or move them to the end of the page); a developer can check nothing depends on their order.',
  topic: 'website-speed',
  judge(ctx) {
    const blocking = ctx.home.headElements('script').filter((el) => {
      if (!attr(el, 'src').trim()) return false;
      return !('async' in el.attribs) && !('defer' in el.attribs) && attr(el, 'type').trim().toLowerCase() !== 'module';
    });
    if (blocking.length === 0) return pass('No script in the home page\'s <head> blocks the page');
    return warn(
      `${plural(blocking.length, 'script')} in the home page's <head> without async or defer:`,
      ...limitLines(blocking.map((el) => quote(attr(el, 'src')))),
    );
  },
});

export const SPEED_CHECKS: readonly CheckDefinition[] = [
  ttfb,
  htmlSize,
  pageWeight,
  compression,
  cacheHeaders,
  largeImages,
  imageFormats,
  renderBlocking,
  lighthouseSpeed,
];

export function speedChecks(ctx: AuditContext): CheckResult[] {
  return runCategory('speed', SPEED_CHECKS, ctx);
}
