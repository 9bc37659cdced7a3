/** better-auth at /api/auth/*, behind our edge checks (src/server/auth/handler.ts). Never cached. */
import type { APIRoute } from 'astro';
import { handleAuthRequest } from '../../../server/auth';
import { startUp } from '../../../server/startup';

export const prerender = false;

export const ALL: APIRoute = async ({ request, clientAddress }) => {
  await startUp();
  return handleAuthRequest(request, { clientAddress });
};
