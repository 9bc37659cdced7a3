/**
 * GET the inbox's live events (server-sent events): every conversation change and new message. The stream
 * holds the admin's grant: it ends when they are demoted, disabled or signed out (docs/decisions/017).
 */
import type { APIRoute } from 'astro';
import { answering } from '../../../../server/modules/chat/http';
import { inboxStream } from '../../../../server/modules/chat/streams';

export const GET: APIRoute = ({ request, locals }) =>
  answering(() => inboxStream({ userId: locals.user?.id, sessionId: locals.session?.id ?? null }, request.signal));
