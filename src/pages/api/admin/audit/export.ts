/**
 * GET /api/admin/audit/export?q=&status= — the free-audit requests as the list shows them (same filter),
 * every field, as a CSV download. Admin only (route guard, then the service).
 */
import type { APIRoute } from 'astro';
import { adminApiRefusal, jsonResponse, usersErrorResponse } from '../../../../server/http/admin-api';
import { logger } from '../../../../server/logger';
import { exportAuditCsv } from '../../../../server/modules/audit/service';
import { auditListQueryOf } from '../../../../shared/schemas/audit';

export const GET: APIRoute = async ({ locals, url }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  try {
    const query = auditListQueryOf(url.searchParams);
    // A byte-order mark: spreadsheet programs then read the file as UTF-8 (names with accents stay right).
    const csv = `\uFEFF${await exportAuditCsv(locals.user?.id, query)}`;
    const day = new Date().toISOString().slice(0, 10);
    return new Response(csv, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="audit-requests-${day}${query.status ? `-${query.status}` : ''}.csv"`,
        'Cache-Control': 'private, no-store',
      },
    });
  } catch (err) {
    const refusal = usersErrorResponse(err);
    if (refusal) return refusal;
    logger.error({ err }, 'audit export failed');
    return jsonResponse(500, { code: 'EXPORT_FAILED', message: 'The export could not be made. Please try again.' });
  }
};
