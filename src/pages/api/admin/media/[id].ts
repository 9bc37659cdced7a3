/**
 * One image of the media library (admin only, like the rest of /api/admin/media):
 *   GET    /api/admin/media/{id}   the image and where it is used
 *   PATCH  /api/admin/media/{id}   { "alt": "…" } changes its alt text, on every page that shows it
 *   DELETE /api/admin/media/{id}   deletes it, refused (409 storage/in-use) while a page still shows it
 * An id that is not one of ours is a 404 storage/object-not-found.
 */
import type { APIRoute } from 'astro';
import { invalidateTags } from '../../../../server/cache/tags';
import { MediaLibraryError } from '../../../../server/modules/media-library/errors';
import { mediaErrorResponse, mediaJson, readJson } from '../../../../server/modules/media-library/http';
import { deleteMedia, mediaItem, requireMediaAdmin, updateMediaAlt } from '../../../../server/modules/media-library/service';
import { STORAGE_MESSAGES } from '../../../../shared/media-library';
import { MEDIA_ID_PATTERN } from '../../../../shared/schemas/fields';

function mediaId(param: string | undefined): string {
  if (!param || !MEDIA_ID_PATTERN.test(param)) throw new MediaLibraryError('storage/object-not-found', STORAGE_MESSAGES.notFound);
  return param;
}

export const GET: APIRoute = async ({ locals, params }) => {
  try {
    await requireMediaAdmin(locals.user?.id);
    return mediaJson(200, await mediaItem(locals.user?.id, mediaId(params.id)));
  } catch (err) {
    return mediaErrorResponse(err);
  }
};

export const PATCH: APIRoute = async (ctx) => {
  const { locals, params, request } = ctx;
  try {
    await requireMediaAdmin(locals.user?.id);
    const id = mediaId(params.id);
    const { alt } = await readJson(request);
    if (typeof alt !== 'string') throw new MediaLibraryError('storage/invalid-request', 'Send the alt text as { "alt": "…" }.');
    const { item, tags } = await updateMediaAlt(locals.user?.id, id, alt);
    // Pages showing the picture read its alt text from here: they are rendered again.
    if (tags.length) await invalidateTags(ctx, tags);
    return mediaJson(200, item);
  } catch (err) {
    return mediaErrorResponse(err, request);
  }
};

export const DELETE: APIRoute = async ({ locals, params }) => {
  try {
    await requireMediaAdmin(locals.user?.id);
    await deleteMedia(locals.user?.id, mediaId(params.id));
    return new Response(null, { status: 204, headers: { 'Cache-Control': 'private, no-store' } });
  } catch (err) {
    return mediaErrorResponse(err);
  }
};
