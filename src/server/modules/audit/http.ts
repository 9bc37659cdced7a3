/**
 * The two ways a free-audit request arrives: the page's form post (works without script) and the island's
 * JSON call. Both read the member from the session on the server (never from the form), the client address
 * from one place, and answer the same way: 200 accepted, 400 with messages by field, 429 with Retry-After.
 */
import { getSession } from '../../auth';
import { config } from '../../config';
import { readSession } from '../../guards/session';
import { clientIpOf } from '../../http/client-ip';
import { auditSubmissionOf } from '../../../shared/schemas/audit';
import { submitAuditRequest, type SubmitResult } from './service';

export interface AuditPostOutcome {
  status: 200 | 400 | 429;
  headers: Record<string, string>;
  result: SubmitResult;
}

async function parseBody(request: Request): Promise<FormData | Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const body: unknown = await request.json().catch(() => null);
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  }
  try {
    return await request.formData();
  } catch {
    return {};
  }
}

export async function handleAuditPost(request: Request, socketAddress: string | undefined): Promise<AuditPostOutcome> {
  const [source, session] = await Promise.all([parseBody(request), readSession(request.headers, getSession)]);
  const result = await submitAuditRequest(auditSubmissionOf(source), {
    clientIp: clientIpOf(request, socketAddress, config().TRUSTED_PROXY_IP_HEADER),
    userId: session?.user.id,
  });
  const headers: Record<string, string> = { 'Cache-Control': 'private, no-store' };
  if (result.kind === 'rate-limited') {
    headers['Retry-After'] = String(result.retryAfterSeconds);
    return { status: 429, headers, result };
  }
  return { status: result.kind === 'invalid' ? 400 : 200, headers, result };
}

/** The JSON the island reads: what the page would show, without the typed values it already has. */
export function auditJsonBody(result: SubmitResult) {
  switch (result.kind) {
    case 'accepted':
      return { ok: true as const };
    case 'invalid':
      return { ok: false as const, message: 'Please correct the highlighted fields.', fieldErrors: result.fieldErrors };
    case 'rate-limited':
      return { ok: false as const, message: result.message, fieldErrors: {}, retryAfterSeconds: result.retryAfterSeconds };
  }
}
export type AuditJsonBody = ReturnType<typeof auditJsonBody>;
