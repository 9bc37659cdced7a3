/** POST `{ token }` from a reply mail's link: the conversation opens in this browser's widget. */
import type { APIRoute } from 'astro';
import { answering, chatJson, identityOf, jsonObjectOf } from '../../../server/modules/chat/http';
import { resumeConversation } from '../../../server/modules/chat/service';

export const POST: APIRoute = ({ request }) =>
  answering(async () => {
    const identity = await identityOf(request);
    const { token } = await jsonObjectOf(request);
    return chatJson(await resumeConversation(identity, typeof token === 'string' ? token.slice(0, 200) : ''));
  });
