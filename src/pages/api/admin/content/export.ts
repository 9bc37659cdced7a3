/**
 * GET /api/admin/content/export — the whole site's content as one file (docs/content-format.md), as a
 * download: what `npm run content:export` writes, for the admin's "Backup and move" page, streamed so a
 * library of hundreds of MB of pictures never sits in memory. Admin only.
 */
import type { APIRoute } from 'astro';
import { adminApiRefusal } from '../../../../server/http/admin-api';
import { downloadResponse, exportFailure, textStream } from '../../../../server/http/download';
import { exportAsAdmin } from '../../../../server/modules/content-transfer';
import { contentFileName } from '../../../../shared/content-transfer';

export const GET: APIRoute = async ({ locals }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  try {
    const now = new Date();
    const file = await exportAsAdmin(locals.user?.id, now);
    // Streamed: the images are read a few at a time while the file goes out.
    return downloadResponse(textStream(file.text, 'content export'), contentFileName(now), 'application/json; charset=utf-8');
  } catch (err) {
    return exportFailure(err, 'content export', 'The content file could not be made. Please try again.');
  }
};
