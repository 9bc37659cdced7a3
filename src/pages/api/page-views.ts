/** POST a signed-in member's page-time record (src/features/page-time/tracker.ts). Other methods: 405. */
import type { APIRoute } from 'astro';
import { handlePageViewPost } from '../../server/modules/page-time/http';

export const POST: APIRoute = ({ request }) => handlePageViewPost(request);

export const ALL: APIRoute = () =>
  new Response(JSON.stringify({ code: 'METHOD_NOT_ALLOWED', message: 'Page-time records are sent with POST.' }), {
    status: 405,
    headers: { Allow: 'POST', 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' },
  });
