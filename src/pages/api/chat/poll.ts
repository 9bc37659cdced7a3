/** GET the messages after a seq and the conversation's state: the fallback when EventSource fails. */
import type { APIRoute } from 'astro';
import { answering, chatJson, seqOf, viewerOf } from '../../../server/modules/chat/http';
import { pollConversation } from '../../../server/modules/chat/service';

export const GET: APIRoute = ({ request, url }) =>
  answering(async () =>
    chatJson(await pollConversation(url.searchParams.get('c') ?? '', url.searchParams.get('t') ?? '', seqOf(url.searchParams.get('after')), await viewerOf(request))),
  );
