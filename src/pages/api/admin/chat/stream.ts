/** GET the inbox's live events (server-sent events): every conversation change and new message. */
import type { APIRoute } from 'astro';
import { asAdmin } from '../../../../server/modules/chat/admin-http';
import { inboxStream } from '../../../../server/modules/chat/streams';

export const GET: APIRoute = ({ request, locals }) => asAdmin(locals.user?.id, async () => inboxStream(request.signal));
