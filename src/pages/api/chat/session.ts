/** GET the visitor's (or member's) conversation and its last 100 messages; nothing is created by reading. */
import type { APIRoute } from 'astro';
import { answering, chatJson, identityOf } from '../../../server/modules/chat/http';
import { chatSession } from '../../../server/modules/chat/service';

export const GET: APIRoute = ({ request }) => answering(async () => chatJson(await chatSession(await identityOf(request))));
