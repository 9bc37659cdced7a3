/**
 * GET the overview's Today as JSON: the four lists, ready to show, and their totals (src/shared/today.ts). The page reads
 * it again when the admin live feed says something changed. Admin only: the route guard, this route, and
 * the account read again from the database.
 */
import type { APIRoute } from 'astro';
import { db } from '../../../server/db';
import { adminApiRefusal, jsonResponse, usersErrorResponse } from '../../../server/http/admin-api';
import { siteTimeZoneFor } from '../../../server/modules/site/time-zone';
import { todayView } from '../../../server/modules/today/view';
import { requireAdmin } from '../../../server/modules/users/service';

export const GET: APIRoute = async ({ locals, request }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  try {
    await requireAdmin(locals.user?.id, db());
    return jsonResponse(200, await todayView(await siteTimeZoneFor(request)));
  } catch (err) {
    const answer = usersErrorResponse(err);
    if (answer) return answer;
    throw err;
  }
};
