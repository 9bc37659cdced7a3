/** POST a free-audit request (the /free-audit island's JSON call; the page's own form post does the same). */
import type { APIRoute } from 'astro';
import { auditJsonBody, handleAuditPost } from '../../server/modules/audit/http';

export const POST: APIRoute = async ({ request, clientAddress }) => {
  const { status, headers, result } = await handleAuditPost(request, clientAddress);
  return new Response(JSON.stringify(auditJsonBody(result)), { status, headers: { ...headers, 'Content-Type': 'application/json' } });
};
