/**
 * Erasing a person (issue 39, GDPR article 17; decision 063): everything the site holds of an address
 * goes in one transaction — audit requests with their checks and reports, chat conversations, lead events,
 * notes, mail sent or queued (and the team's notices that name them), sequence enrolments, bookings, the
 * activity entries about them, their member account with its page times. Kept: one activity entry keyed by
 * a one-way hash of the address (no name, no address, the numbers), and their unsubscribe record under
 * the same hash, so no sequence mails the address again and an import leaves it out.
 */
import { db } from '../../db';
import { normalizeEmail } from '../../../shared/lead-people';
import { insertActivity } from '../activity/repository';
import { unsubscribedAtOf } from '../lead-sequences/repository';
import { announceTodayChange } from '../today/live';
import { requireAdmin } from '../users/service';
import { LeadError } from './errors';
import { erasedKey } from './erased';
import * as repo from './erase-repository';
import { LEAD_ENTITY } from './work-repository';

export type { ErasedCounts } from './erase-repository';

const total = (counts: repo.ErasedCounts) => Object.values(counts).reduce((sum, n) => sum + n, 0);

async function recordsToErase(email: string, ex: Parameters<typeof repo.findPersonRecords>[1]) {
  const records = await repo.findPersonRecords(normalizeEmail(email), ex);
  if (records.member?.role === 'admin') {
    throw new LeadError('CONFLICT', 'This address is an admin’s account: take away its admin role on the Users page first, then erase it.');
  }
  return records;
}

/** What erasing the address would remove (for the confirmation); NOT_FOUND when the site holds nothing of it. */
export async function erasePreview(actorId: string | undefined, email: string): Promise<repo.ErasedCounts> {
  return db().transaction(async (tx) => {
    await requireAdmin(actorId, tx);
    const counts = await repo.countPersonRecords(await recordsToErase(email, tx), tx);
    if (total(counts) === 0) throw new LeadError('NOT_FOUND', 'Nothing is kept about this address.');
    return counts;
  });
}

/** Erases the address's person; answers what went. */
export async function erasePerson(actorId: string | undefined, email: string, now = new Date()): Promise<repo.ErasedCounts> {
  const counts = await db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const records = await recordsToErase(email, tx);
    const key = erasedKey(records.email);
    const unsubscribedSince = (await unsubscribedAtOf(records.email, tx)) ?? now;
    const erased = await repo.deletePersonRecords(records, [records.email, ...records.aliases].map(erasedKey), unsubscribedSince, tx);
    if (total(erased) === 0) throw new LeadError('NOT_FOUND', 'Nothing is kept about this address.');
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'erase',
      entityType: LEAD_ENTITY,
      entityId: key,
      summary: `Erased a person on request: ${total(erased)} records`,
      before: null,
      after: { ...erased },
    });
    return erased;
  });
  await announceTodayChange();
  return counts;
}
