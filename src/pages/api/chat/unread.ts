/** GET how many team replies the visitor's (or member's) widget has not shown yet: the launcher's mark. */
import type { APIRoute } from 'astro';
import { answering, chatJson, identityOf } from '../../../server/modules/chat/http';
import { unreadReplies } from '../../../server/modules/chat/service';

export const GET: APIRoute = ({ request }) => answering(async () => chatJson(await unreadReplies(await identityOf(request))));
