/** POST a page view from the browser (src/features/analytics/beacon.ts): anonymous, counted per day. Public. */
import type { APIRoute } from 'astro';
import { handleVisitPost } from '../../server/modules/analytics/http';

export const POST: APIRoute = ({ request, clientAddress }) => handleVisitPost(request, clientAddress);
