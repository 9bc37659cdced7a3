/**
 * GET /api/admin/leads/export?q=&kind=&sort= — the people of /admin/leads as the list shows them (same
 * filter and order), as a CSV download. Admin only (route guard, then the service).
 */
import type { APIRoute } from 'astro';
import { adminApiRefusal, jsonResponse, usersErrorResponse } from '../../../../server/http/admin-api';
import { logger } from '../../../../server/logger';
import { exportPeopleCsv } from '../../../../server/modules/leads/people';
import { peopleQueryOf } from '../../../../shared/lead-people';

export const GET: APIRoute = async ({ locals, url }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  try {
    const query = peopleQueryOf(url.searchParams);
    // A byte-order mark: spreadsheet programs then read the file as UTF-8 (names with accents stay right).
    const csv = `\uFEFF${await exportPeopleCsv(locals.user?.id, query)}`;
    const day = new Date().toISOString().slice(0, 10);
    return new Response(csv, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="leads-${day}${query.kind ? `-${query.kind}` : ''}.csv"`,
        'Cache-Control': 'private, no-store',
      },
    });
  } catch (err) {
    const refusal = usersErrorResponse(err);
    if (refusal) return refusal;
    logger.error({ err }, 'leads export failed');
    return jsonResponse(500, { code: 'EXPORT_FAILED', message: 'The export could not be made. Please try again.' });
  }
};
