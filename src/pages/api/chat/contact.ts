/** POST the visitor's name, email and optional message: a chat lead, and a notification to every admin. */
import type { APIRoute } from 'astro';
import { answering, chatJson, jsonObjectOf, visitorRequestOf } from '../../../server/modules/chat/http';
import { saveChatContact } from '../../../server/modules/chat/service';

export const POST: APIRoute = ({ request, clientAddress }) =>
  answering(async () => {
    const visitor = await visitorRequestOf(request, clientAddress);
    return chatJson(await saveChatContact(await jsonObjectOf(request), visitor));
  });
