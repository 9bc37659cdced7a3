/**
 * The chat's HTTP edge (src/pages/api/chat/*): who is asking (visitor header, member session), the
 * client address, JSON answers and errors in the `ChatErrorBody` shape, never cached.
 */
import { CHAT_VISITOR_HEADER, type ChatStreamLine } from '../../../shared/chat';
import { getSession } from '../../auth';
import { config } from '../../config';
import { readSession } from '../../guards/session';
import { clientIpOf } from '../../http/client-ip';
import { logger } from '../../logger';
import { ChatError } from './errors';
import { isVisitorId, visitorKeyOf, type ChatIdentity } from './identity';
import { acceptVisitorMessage, answerVisitorMessage, type SendInput, type VisitorRequest } from './service';

export const NO_STORE = 'private, no-store';

export function chatJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': NO_STORE, ...headers } });
}

export function chatErrorResponse(err: ChatError): Response {
  const headers: Record<string, string> = err.retryAfterSeconds !== undefined ? { 'Retry-After': String(err.retryAfterSeconds) } : {};
  return chatJson(err.toBody(), err.status, headers);
}

/** Runs a handler; the chat's own refusals become their JSON answers, anything else stays a 500 (logged by Astro). */
export async function answering(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ChatError) return chatErrorResponse(err);
    throw err;
  }
}

/** The member from the session cookie and the visitor from the header; one of them is needed. */
export async function identityOf(request: Request): Promise<ChatIdentity> {
  const header = request.headers.get(CHAT_VISITOR_HEADER)?.trim() ?? '';
  if (header !== '' && !isVisitorId(header)) throw new ChatError('INVALID', 'The chat could not identify this browser. Please reload the page.');
  const session = await readSession(request.headers, getSession);
  if (!session && header === '') throw new ChatError('INVALID', 'The chat could not identify this browser. Please reload the page.');
  return { visitorKey: header === '' ? null : visitorKeyOf(header), userId: session?.user.id ?? null };
}

/** The signed-in account and session of a stream or poll request (its cookie), or null: no query without one. */
export async function viewerOf(request: Request): Promise<{ userId: string; sessionId: string } | null> {
  const session = await readSession(request.headers, getSession);
  return session ? { userId: session.user.id, sessionId: session.session.id } : null;
}

export async function visitorRequestOf(request: Request, clientAddress: string | undefined): Promise<VisitorRequest> {
  return { identity: await identityOf(request), clientIp: clientIpOf(request, clientAddress, config().TRUSTED_PROXY_IP_HEADER) };
}

/** A JSON object body (the middleware has already refused unreadable and oversize ones). */
export async function jsonObjectOf(request: Request): Promise<Record<string, unknown>> {
  const body: unknown = await request.json().catch(() => undefined);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ChatError('INVALID', 'The request must be a JSON object.');
  return body as Record<string, unknown>;
}

/** A sequence number from a query parameter or Last-Event-ID; anything else means "from the start". */
export function seqOf(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

const encoder = new TextEncoder();
const line = (l: ChatStreamLine) => encoder.encode(`${JSON.stringify(l)}\n`);

/**
 * POST /api/chat/messages. JSON, or with LLM mode on (and nobody taken over) `application/x-ndjson`: the
 * answer's parts as they arrive, then the whole response. Refusals come before the stream starts, with
 * their own status codes.
 */
export async function postMessage(request: Request, clientAddress: string | undefined): Promise<Response> {
  return answering(async () => {
    const visitor = await visitorRequestOf(request, clientAddress);
    const body = await jsonObjectOf(request);
    const input: SendInput = { body: body.body, attribution: body.attribution };
    const accepted = await acceptVisitorMessage(input, visitor);
    // The answer is not cancelled when the visitor leaves mid-answer (another page, a reload): it is stored
    // and reaches them through the stream or the history, like any other message.
    if (!accepted.settings.llm.enabled || accepted.takenOver) return chatJson(await answerVisitorMessage(accepted));

    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (l: ChatStreamLine) => {
          try {
            controller.enqueue(line(l));
          } catch {
            // The visitor left; the answer is still stored and published.
          }
        };
        try {
          const response = await answerVisitorMessage(accepted, { onDelta: (text) => text && send({ type: 'delta', text }) });
          send({ type: 'done', response });
        } catch (err) {
          logger.error({ err }, 'chat answer failed while streaming');
          const error = err instanceof ChatError ? err.toBody().error : { code: 'NOT_FOUND' as const, message: 'The answer could not be completed. Please try again.' };
          send({ type: 'error', error });
        }
        try {
          controller.close();
        } catch {
          // Already closed by a cancel.
        }
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': NO_STORE, 'X-Accel-Buffering': 'no' },
    });
  });
}
