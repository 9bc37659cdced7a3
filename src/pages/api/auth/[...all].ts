/** better-auth at /api/auth/*, behind our edge checks (src/server/auth/handler.ts). Never cached. */
import type { APIRoute } from 'astro';
import { handleAuthRequest } from '../../../server/auth';
import { ready } from '../../../server/db';

export const prerender = false;

export const ALL: APIRoute = async ({ request, clientAddress }) => {
  await ready();
  return handleAuthRequest(request, { clientAddress });
};
