/** POST a visitor message; the assistant's answer comes back as JSON, or as ndjson lines in LLM mode. */
import type { APIRoute } from 'astro';
import { postMessage } from '../../../server/modules/chat/http';

export const POST: APIRoute = ({ request, clientAddress }) => postMessage(request, clientAddress);
