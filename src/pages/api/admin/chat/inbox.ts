/** GET the conversations with activity since `?after=<ISO>`: the inbox's polling fallback. */
import type { APIRoute } from 'astro';
import { inboxChangedSince } from '../../../../server/modules/chat/admin';
import { asAdmin, dateOf } from '../../../../server/modules/chat/admin-http';
import { chatJson } from '../../../../server/modules/chat/http';

export const GET: APIRoute = ({ url, locals }) =>
  asAdmin(locals.user?.id, async () => chatJson({ conversations: await inboxChangedSince(dateOf(url.searchParams.get('after'))) }));
