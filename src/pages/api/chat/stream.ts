/** GET one conversation's live events (server-sent events), opened with its stream token (and, for a member's conversation, their session). */
import type { APIRoute } from 'astro';
import { config } from '../../../server/config';
import { clientIpOf } from '../../../server/http/client-ip';
import { answering, seqOf, viewerOf } from '../../../server/modules/chat/http';
import { conversationStream } from '../../../server/modules/chat/streams';

export const GET: APIRoute = ({ request, url, clientAddress }) =>
  answering(async () =>
    conversationStream(
      url.searchParams.get('c') ?? '',
      url.searchParams.get('t') ?? '',
      seqOf(request.headers.get('last-event-id')) ?? seqOf(url.searchParams.get('after')),
      request.signal,
      clientIpOf(request, clientAddress, config().TRUSTED_PROXY_IP_HEADER),
      await viewerOf(request),
    ),
  );
