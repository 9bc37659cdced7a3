/**
 * GET /api/admin/leads/export?q=&kind=&sort= — the people of /admin/leads as the list shows them (same
 * filter and order), as a CSV download. Admin only (route guard, then the service).
 */
import type { APIRoute } from 'astro';
import { adminApiRefusal } from '../../../../server/http/admin-api';
import { csvDownload, exportFailure, fileDay } from '../../../../server/http/download';
import { exportPeopleCsv } from '../../../../server/modules/leads/people';
import { peopleQueryOf } from '../../../../shared/lead-people';

export const GET: APIRoute = async ({ locals, url }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  try {
    const query = peopleQueryOf(url.searchParams);
    const csv = await exportPeopleCsv(locals.user?.id, query);
    return csvDownload(csv, `leads-${fileDay()}${query.kind ? `-${query.kind}` : ''}.csv`);
  } catch (err) {
    return exportFailure(err, 'leads export');
  }
};
