/**
 * The media library's rules: admin uploads (decoded, resized, re-encoded without metadata by
 * src/server/media/process.ts), the library's size quota (MEDIA_QUOTA_BYTES), alt text, and deleting only
 * what no page shows any more. Every write checks the acting admin inside its transaction and is recorded
 * in the activity log (entity type 'media').
 */
import { db } from '../../db';
import { config } from '../../config';
import { forgetMedia } from '../../media/cache';
import { MediaError, processImage } from '../../media/process';
import {
  fileTooLargeMessage,
  altStillNeededMessage,
  inUseMessage,
  MEDIA_PER_PAGE,
  mediaAltSchema,
  quotaExceededMessage,
  STORAGE_MESSAGES,
  type MediaItem,
  type MediaItemWithUsage,
  type MediaListQuery,
  type MediaPage,
  type MediaUsage,
} from '../../../shared/media-library';
import { mediaUrl } from '../../../shared/schemas/fields';
import type { CacheTag } from '../../cache/tags';
import { insertActivity } from '../activity/repository';
import { requireAdmin, UsersError, type Profile } from '../users/service';
import { MediaLibraryError } from './errors';
import { PICTURE_PAGE_TAGS } from './picture-alt';
import * as repo from './repository';

export { MediaLibraryError } from './errors';

/** The acting admin, in storage terms: signed out is 401, anyone else 403. */
async function actingAdmin(actorId: string | undefined, ex: repo.Executor): Promise<Profile> {
  try {
    return await requireAdmin(actorId, ex);
  } catch (err) {
    if (err instanceof UsersError) {
      throw err.code === 'NOT_ADMIN'
        ? new MediaLibraryError('storage/unauthorized', STORAGE_MESSAGES.unauthorized)
        : new MediaLibraryError('storage/unauthenticated', STORAGE_MESSAGES.unauthenticated);
    }
    throw err;
  }
}

const adminWrite = <T>(actorId: string | undefined, work: (tx: repo.Executor, actor: Profile) => Promise<T>): Promise<T> =>
  db().transaction(async (tx) => work(tx, await actingAdmin(actorId, tx)));

/** Checked before the costly part of an upload (reading and decoding the file); the write checks again. */
export async function requireMediaAdmin(actorId: string | undefined): Promise<void> {
  await actingAdmin(actorId, db());
}

const toItem = (row: repo.MediaInfo): MediaItem => ({
  id: row.id,
  url: mediaUrl(row.id),
  width: row.width,
  height: row.height,
  size: row.size,
  alt: row.alt,
  originalName: row.originalName,
  createdAt: row.createdAt.toISOString(),
});

const nameOf = (row: Pick<MediaItem, 'originalName' | 'id'>) => row.originalName || `image ${row.id.slice(0, 8)}`;

function parseAlt(alt: unknown): string {
  const parsed = mediaAltSchema.safeParse(typeof alt === 'string' ? alt.trim() : alt ?? '');
  if (!parsed.success) throw new MediaLibraryError('storage/invalid-request', parsed.error.issues[0]?.message ?? 'The alt text is not valid.');
  return parsed.data;
}

/** A file name as the admin will recognise it: no folders, no control characters, not endless. */
export function cleanFileName(name: unknown): string {
  if (typeof name !== 'string') return '';
  const base = name.split(/[\\/]/).at(-1) ?? '';
  return base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
}

const PROCESS_ERRORS: Record<MediaError['code'], 'storage/invalid-file' | 'storage/file-too-large'> = {
  empty: 'storage/invalid-file',
  'not-an-image': 'storage/invalid-file',
  'unsupported-format': 'storage/invalid-file',
  'too-many-pixels': 'storage/invalid-file',
  'too-large': 'storage/file-too-large',
};

export interface UploadInput {
  bytes: Uint8Array;
  alt?: unknown;
  originalName?: unknown;
}

export interface UploadResult {
  item: MediaItem;
  /** False when these exact bytes were already in the library (the same URL is handed back). */
  created: boolean;
}

/**
 * Stores an uploaded image. The file is validated by decoding it (its name and declared type say
 * nothing), resized to at most 1600 px, re-encoded as WebP without metadata (EXIF and GPS are gone) and
 * named by the hash of the result. `quotaBytes` is the operator's MEDIA_QUOTA_BYTES unless given.
 */
export async function uploadMedia(actorId: string | undefined, input: UploadInput, options: { quotaBytes?: number } = {}): Promise<UploadResult> {
  await requireMediaAdmin(actorId);
  const alt = parseAlt(input.alt);
  const originalName = cleanFileName(input.originalName);
  let image;
  try {
    image = await processImage(input.bytes);
  } catch (err) {
    if (!(err instanceof MediaError)) throw err;
    const code = PROCESS_ERRORS[err.code];
    throw new MediaLibraryError(code, code === 'storage/file-too-large' ? fileTooLargeMessage(input.bytes.byteLength) : err.message);
  }
  const quota = options.quotaBytes ?? config().MEDIA_QUOTA_BYTES;

  return adminWrite(actorId, async (tx, actor) => {
    await repo.lockMedia(tx);
    const existing = await repo.findMediaInfo(tx, image.id);
    const record = (summary: string, after: MediaItem) =>
      insertActivity(tx, { actorId: actor.id, actorEmail: actor.email, action: 'upload', entityType: 'media', entityId: image.id, summary, before: null, after, revertOf: null });
    if (existing) {
      // The same picture again: same URL, nothing more stored; an alt text given now fills an empty one.
      if (alt && !existing.alt) await repo.setMediaAlt(tx, existing.id, alt);
      const item = toItem({ ...existing, alt: existing.alt || alt });
      await record(`Uploaded image “${originalName || nameOf(item)}” again (already in the library)`, item);
      return { item, created: false };
    }
    const used = await repo.usedBytes(tx);
    if (used + image.data.byteLength > quota) {
      throw new MediaLibraryError('storage/quota-exceeded', quotaExceededMessage(used, quota, image.data.byteLength));
    }
    await repo.insertMedia(tx, { id: image.id, contentType: image.contentType, width: image.width, height: image.height, size: image.data.byteLength, alt, originalName, data: image.data });
    const item = toItem((await repo.findMediaInfo(tx, image.id))!);
    await record(`Uploaded image “${nameOf(item)}” (${item.width}×${item.height})`, item);
    return { item, created: true };
  });
}

async function withUsage(ex: repo.Executor, rows: repo.MediaInfo[]): Promise<MediaItemWithUsage[]> {
  const usage = await repo.findUsage(ex, rows.map((r) => r.id));
  return rows.map((r) => ({ ...toItem(r), usage: usage.get(r.id) ?? [] }));
}

/** One page of the library, newest first, each image with the places that use it. */
export async function libraryPage(actorId: string | undefined, query: MediaListQuery, perPage = MEDIA_PER_PAGE): Promise<MediaPage> {
  const ex = db();
  await actingAdmin(actorId, ex);
  const { rows, total } = await repo.listMediaInfo(ex, query.q, perPage, (query.page - 1) * perPage);
  return { items: await withUsage(ex, rows), total, page: query.page, pages: Math.max(1, Math.ceil(total / perPage)), perPage };
}

export async function mediaItem(actorId: string | undefined, id: string): Promise<MediaItemWithUsage> {
  const ex = db();
  await actingAdmin(actorId, ex);
  const row = await repo.findMediaInfo(ex, id);
  if (!row) throw new MediaLibraryError('storage/object-not-found', STORAGE_MESSAGES.notFound);
  return (await withUsage(ex, [row]))[0]!;
}

/** How full the library is, for the meter on /admin/media. */
export async function storageUse(actorId: string | undefined): Promise<{ usedBytes: number; quotaBytes: number }> {
  const ex = db();
  await actingAdmin(actorId, ex);
  return { usedBytes: await repo.usedBytes(ex), quotaBytes: config().MEDIA_QUOTA_BYTES };
}

/** Fields whose pages show the picture with its media item's alt text (decision 033). */
const PICTURE_FIELDS = new Set(['picture', 'profile picture', 'featured image']);

const shownAsPicture = (usage: readonly MediaUsage[]) => usage.filter((u) => u.field.split(', ').some((f) => PICTURE_FIELDS.has(f)));

export interface AltChange {
  item: MediaItem;
  /** The public pages that show the image with its alt text (invalidate them once committed). */
  tags: readonly CacheTag[];
}

/**
 * A picture's one alt text (decision 033): every page that shows it reads it from here, so a change
 * reaches them all, and a picture a page shows keeps one (the rule of every editor that chooses a picture).
 */
export async function updateMediaAlt(actorId: string | undefined, id: string, altInput: unknown): Promise<AltChange> {
  const alt = parseAlt(altInput);
  return adminWrite(actorId, async (tx, actor) => {
    const before = await repo.findMediaInfo(tx, id);
    if (!before) throw new MediaLibraryError('storage/object-not-found', STORAGE_MESSAGES.notFound);
    if (before.alt === alt) return { item: toItem(before), tags: [] };
    const pictures = shownAsPicture((await repo.findUsage(tx, [id])).get(id) ?? []);
    if (alt === '' && pictures.length > 0) throw new MediaLibraryError('storage/invalid-request', altStillNeededMessage(pictures));
    await repo.setMediaAlt(tx, id, alt);
    const item = toItem({ ...before, alt });
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'update',
      entityType: 'media',
      entityId: id,
      summary: `Changed the alt text of image “${nameOf(item)}”`,
      before: { alt: before.alt },
      after: { alt },
      revertOf: null,
    });
    return { item, tags: pictures.length > 0 ? PICTURE_PAGE_TAGS : [] };
  });
}

/**
 * Deletes an image no page uses; while one does, refuses and names every place (storage/in-use). Every
 * process's media cache drops it: this one at once, the others when the event reaches them (decision 022).
 */
export async function deleteMedia(actorId: string | undefined, id: string): Promise<void> {
  await adminWrite(actorId, async (tx, actor) => {
    const before = await repo.findMediaInfo(tx, id);
    if (!before) throw new MediaLibraryError('storage/object-not-found', STORAGE_MESSAGES.notFound);
    const usage = (await repo.findUsage(tx, [id])).get(id) ?? [];
    if (usage.length) throw new MediaLibraryError('storage/in-use', inUseMessage(usage), usage);
    await repo.deleteMediaRow(tx, id);
    const item = toItem(before);
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'delete',
      entityType: 'media',
      entityId: id,
      summary: `Deleted image “${nameOf(item)}”`,
      before: item,
      after: null,
      revertOf: null,
    });
  });
  // After the commit: a read that starts now finds no row, and one already running does not store its copy.
  await forgetMedia(id);
}
