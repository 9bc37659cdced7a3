/**
 * GET /api/admin/users/export?q=&role=&verified=&status=&sort= — the accounts as the users list shows them
 * (same filter and order, every matching row, not only the page on screen) as a CSV download, streamed
 * as it is read. Admin only (route guard, this route, then the service).
 */
import type { APIRoute } from 'astro';
import { adminApiRefusal } from '../../../../server/http/admin-api';
import { csvStreamDownload, exportFailure, fileDay } from '../../../../server/http/download';
import { userCsvChunks } from '../../../../server/modules/users/admin';
import { parseUserListQuery } from '../../../../shared/admin-users';

export const GET: APIRoute = async ({ locals, url }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  let chunks: AsyncGenerator<string>;
  try {
    // The admin check runs before any header is sent, so a refusal is an error answer, not a file.
    chunks = await userCsvChunks(locals.user?.id, parseUserListQuery(url.searchParams));
  } catch (err) {
    return exportFailure(err, 'users export');
  }
  return csvStreamDownload(chunks, `users-${fileDay()}.csv`, 'users export');
};
