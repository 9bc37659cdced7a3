/** The admin inbox's HTTP edge: the route guard already admits only admins; each handler checks again. */
import { db } from '../../db';
import { requireAdmin, UsersError } from '../users/service';
import { ChatError } from './errors';
import { answering } from './http';

/** The chat's 403 for anyone who is not a verified, enabled admin right now (read from the database). */
export async function requireInboxAdmin(actorId: string | undefined): Promise<void> {
  try {
    await requireAdmin(actorId, db());
  } catch (err) {
    if (err instanceof UsersError) throw new ChatError('FORBIDDEN', 'Only an admin can read the chat inbox.');
    throw err;
  }
}

/** Runs `work` for a verified admin; anyone else gets the chat's 403. */
export function asAdmin(actorId: string | undefined, work: () => Promise<Response>): Promise<Response> {
  return answering(async () => {
    await requireInboxAdmin(actorId);
    return work();
  });
}

/** `?after=` as a date; missing or unreadable means "the most recent". */
export function dateOf(value: string | null): Date | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
