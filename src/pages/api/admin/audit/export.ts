/**
 * GET /api/admin/audit/export?q=&report=&stage= — the free-audit requests as the list shows them (same filter),
 * every field, as a CSV download. Admin only (route guard, then the service).
 */
import type { APIRoute } from 'astro';
import { adminApiRefusal } from '../../../../server/http/admin-api';
import { csvDownload, exportFailure, fileDay } from '../../../../server/http/download';
import { exportAuditCsv } from '../../../../server/modules/audit/service';
import { auditListQueryOf } from '../../../../shared/schemas/audit';

export const GET: APIRoute = async ({ locals, url }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  try {
    const query = auditListQueryOf(url.searchParams);
    const csv = await exportAuditCsv(locals.user?.id, query);
    return csvDownload(csv, `audit-requests-${fileDay()}${query.report ? `-${query.report}` : ''}.csv`);
  } catch (err) {
    return exportFailure(err, 'audit export');
  }
};
