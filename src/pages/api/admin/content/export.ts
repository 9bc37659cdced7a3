/**
 * GET /api/admin/content/export — the whole site's content as one file (docs/content-format.md), as a
 * download: what `npm run content:export` writes, for the admin's "Backup and move" page. Admin only.
 */
import type { APIRoute } from 'astro';
import { adminApiRefusal, jsonResponse, usersErrorResponse } from '../../../../server/http/admin-api';
import { logger } from '../../../../server/logger';
import { exportAsAdmin } from '../../../../server/modules/content-transfer';
import { contentFileName } from '../../../../shared/content-transfer';

export const GET: APIRoute = async ({ locals }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  try {
    const bundle = await exportAsAdmin(locals.user?.id);
    return new Response(`${JSON.stringify(bundle, null, 2)}\n`, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="${contentFileName(new Date(bundle.exportedAt))}"`,
        'Cache-Control': 'private, no-store',
      },
    });
  } catch (err) {
    const refusal = usersErrorResponse(err);
    if (refusal) return refusal;
    logger.error({ err }, 'content export failed');
    return jsonResponse(500, { code: 'EXPORT_FAILED', message: 'The content file could not be made. Please try again.' });
  }
};
