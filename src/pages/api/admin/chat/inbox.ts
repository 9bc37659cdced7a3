/** GET the conversations with activity since `?after=<ISO>` and the counts now: the admin live feed's polling fallback. */
import type { APIRoute } from 'astro';
import { inboxChangedSince } from '../../../../server/modules/chat/admin';
import { asAdmin, dateOf } from '../../../../server/modules/chat/admin-http';
import { chatJson } from '../../../../server/modules/chat/http';
import { adminSignals } from '../../../../server/modules/today/service';

export const GET: APIRoute = ({ url, locals }) =>
  asAdmin(locals.user?.id, async () => {
    const [conversations, signals] = await Promise.all([inboxChangedSince(dateOf(url.searchParams.get('after'))), adminSignals()]);
    return chatJson({ conversations, signals });
  });
