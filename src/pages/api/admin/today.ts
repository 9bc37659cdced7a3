/**
 * GET the overview's Today as JSON: the four lists and their totals (src/shared/today.ts). The page reads
 * it again when the admin live feed says something changed. Admin only: the route guard, this route, and
 * the account read again from the database.
 */
import type { APIRoute } from 'astro';
import { db } from '../../../server/db';
import { adminApiRefusal, jsonResponse, usersErrorResponse } from '../../../server/http/admin-api';
import { todayOverview } from '../../../server/modules/today/service';
import { requireAdmin } from '../../../server/modules/users/service';

export const GET: APIRoute = async ({ locals }) => {
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  try {
    await requireAdmin(locals.user?.id, db());
    return jsonResponse(200, await todayOverview());
  } catch (err) {
    const answer = usersErrorResponse(err);
    if (answer) return answer;
    throw err;
  }
};
