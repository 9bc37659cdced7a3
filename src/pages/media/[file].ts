import type { APIRoute } from 'astro';
import { mediaResponse } from '../../server/media/serve';

export const prerender = false;

/** Stored images by content hash: /media/{id}.webp (see src/server/media/serve.ts). */
export const GET: APIRoute = ({ params, request }) => mediaResponse(params.file, request);
export const HEAD: APIRoute = ({ params, request }) => mediaResponse(params.file, request);
