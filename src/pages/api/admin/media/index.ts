/**
 * The media library API (admin only: the route guard refuses anyone else with 401/403 in the storage
 * catalogue, and the module checks the acting admin again).
 *   GET  /api/admin/media?q=&page=   a page of images, newest first, each with where it is used
 *   POST /api/admin/media            multipart `file` (+ optional `alt`): 201 with the stored image (200
 *                                    when these exact bytes were already in the library)
 */
import type { APIRoute } from 'astro';
import { mediaErrorResponse, mediaJson, readUploadForm } from '../../../../server/modules/media-library/http';
import { libraryPage, requireMediaAdmin, uploadMedia } from '../../../../server/modules/media-library/service';
import { parseMediaListQuery } from '../../../../shared/media-library';

export const GET: APIRoute = async ({ locals, url }) => {
  try {
    return mediaJson(200, await libraryPage(locals.user?.id, parseMediaListQuery(url.searchParams)));
  } catch (err) {
    return mediaErrorResponse(err);
  }
};

export const POST: APIRoute = async ({ locals, request }) => {
  try {
    // Who asks is settled before a 10 MB body is read and decoded.
    await requireMediaAdmin(locals.user?.id);
    const upload = await readUploadForm(request);
    const { item, created } = await uploadMedia(locals.user?.id, upload);
    return mediaJson(created ? 201 : 200, item);
  } catch (err) {
    return mediaErrorResponse(err, request);
  }
};
