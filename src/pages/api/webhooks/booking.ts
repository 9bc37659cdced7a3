/** POST a booking from the external scheduler: Cal.com, Calendly or the generic signed form (src/server/modules/bookings/http.ts). */
import type { APIRoute } from 'astro';
import { handleBookingWebhook } from '../../../server/modules/bookings/http';

export const POST: APIRoute = ({ request, clientAddress }) => handleBookingWebhook(request, clientAddress);
