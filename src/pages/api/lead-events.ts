/** POST a lead event from the browser: a "Book a call" click (src/features/attribution/capture.ts). Public. */
import type { APIRoute } from 'astro';
import { handleLeadEventPost } from '../../server/modules/leads/http';

export const POST: APIRoute = ({ request, clientAddress }) => handleLeadEventPost(request, clientAddress);
