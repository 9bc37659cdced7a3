/**
 * GET /api/admin/users/export?q=&role=&verified=&status=&sort= — the accounts as the users list shows them
 * (same filter and order, every matching row, not only the page on screen) as a CSV download, streamed
 * as it is read. Admin only (route guard, this route, then the service).
 */
import type { APIRoute } from 'astro';
import { adminApiRefusal, jsonResponse, usersErrorResponse } from '../../../../server/http/admin-api';
import { logger } from '../../../../server/logger';
import { userCsvChunks } from '../../../../server/modules/users/admin';
import { parseUserListQuery } from '../../../../shared/admin-users';

export const GET: APIRoute = async ({ locals, url }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  let chunks: AsyncGenerator<string>;
  try {
    chunks = await userCsvChunks(locals.user?.id, parseUserListQuery(url.searchParams));
  } catch (err) {
    const refusal = usersErrorResponse(err);
    if (refusal) return refusal;
    logger.error({ err }, 'users export failed');
    return jsonResponse(500, { code: 'EXPORT_FAILED', message: 'The export could not be made. Please try again.' });
  }
  const encoder = new TextEncoder();
  // A byte-order mark first: spreadsheet programs then read the file as UTF-8 (names with accents stay right).
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(first ? `\uFEFF${next.value}` : next.value));
        first = false;
      } catch (err) {
        // Headers are sent: the download ends short rather than claiming to be complete.
        logger.error({ err }, 'users export failed while streaming');
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="users-${day}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
};
