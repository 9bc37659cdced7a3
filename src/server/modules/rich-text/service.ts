/**
 * The rich-text editor's preview: exactly what saving would store, so what the admin previews is
 * byte-for-byte what visitors get (the content engine and the policies module save sanitizeHtml's output,
 * and the public pages render the stored HTML as it is).
 */
import { db } from '../../db';
import { sanitizeHtml } from '../../html/sanitize';
import { requireAdmin } from '../users/service';

export async function previewHtml(actorId: string | undefined, html: string): Promise<string> {
  await requireAdmin(actorId, db());
  return sanitizeHtml(html);
}
