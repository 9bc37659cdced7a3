/**
 * GET /api/prices — the member price sheet (PRODUCT.md "Deliberate differences" 1). The middleware guard
 * already answered 401/403 for visitors and unverified accounts; the check is repeated here so this route
 * stays safe on its own if the guard table ever changes.
 */
import type { APIRoute } from 'astro';
import { GUARD_MESSAGES } from '../../server/guards';
import { logger } from '../../server/logger';
import { getPriceSheet } from '../../server/modules/prices/service';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' },
  });

export const GET: APIRoute = async ({ locals }) => {
  const { user } = locals;
  if (!user) return json(401, { code: 'UNAUTHORIZED', message: GUARD_MESSAGES.UNAUTHORIZED });
  if (!user.emailVerified) return json(403, { code: 'FORBIDDEN', message: GUARD_MESSAGES.NOT_VERIFIED });
  try {
    return json(200, await getPriceSheet());
  } catch (err) {
    logger.error({ err }, 'price sheet failed');
    return json(500, { code: 'UNKNOWN', message: 'Prices are unavailable right now. Please try again.' });
  }
};
