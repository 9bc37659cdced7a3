/** POST a signed-in member's page-time record (src/features/page-time/tracker.ts). Other methods: 405. */
import type { APIRoute } from 'astro';
import { handlePageViewPost } from '../../server/modules/page-time/http';

export const POST: APIRoute = ({ request }) => handlePageViewPost(request);
