/**
 * Merging two people (issue 39): the same person under two addresses becomes one, under the address the
 * admin keeps. Everything of the other address moves onto it in one transaction (timeline, audit requests,
 * chats, notes, bookings, sequences), the two working states combine (`combinedWork`), one activity entry
 * says what moved, and the other address is kept as an alias: a later lead event with it joins this person.
 * A member account stays with its own address, so the address merged away may not have one.
 */
import { db } from '../../db';
import { normalizeEmail } from '../../../shared/lead-people';
import { combinedWork, type MergedCounts } from '../../../shared/merge-people';
import { isLeadStage } from '../../../shared/schemas/lead-work';
import { insertActivity } from '../activity/repository';
import { findProfileByEmail } from '../users/repository';
import { announceTodayChange } from '../today/live';
import { requireAdmin } from '../users/service';
import { LeadError } from './errors';
import * as repo from './merge-repository';
import { isLead, LEAD_ENTITY } from './work-repository';

type Tx = Parameters<Parameters<ReturnType<typeof db>['transaction']>[0]>[0];

async function checkedPair(keepEmail: string, otherEmail: string, tx: Tx) {
  const keep = normalizeEmail(keepEmail);
  const other = normalizeEmail(otherEmail);
  if (!/^[^@\s]+@[^@\s]+$/.test(other)) throw new LeadError('INVALID', 'Type an email address, like name@example.com.', { other: 'Type an email address, like name@example.com.' });
  if (keep === other) throw new LeadError('INVALID', 'Pick another person: this is the same address.', { other: 'Pick another person: this is the same address.' });
  for (const email of [keep, other]) {
    if (!(await isLead(email, tx))) throw new LeadError('NOT_FOUND', `No lead has the address ${email}.`, { other: `No lead has the address ${email}.` });
  }
  const [keepAccount, otherAccount] = await Promise.all([findProfileByEmail(keep, tx), findProfileByEmail(other, tx)]);
  if (otherAccount) {
    const message = keepAccount
      ? 'Both addresses have member accounts: an account stays with its own address, so these two cannot be merged.'
      : `${other} has a member account, which stays with its address: open that person and merge ${keep} into them instead.`;
    throw new LeadError('CONFLICT', message, { other: message });
  }
  return { keep, other };
}

/** What would move from `otherEmail` onto `keepEmail` (for the confirmation); refusals as in `mergePeople`. */
export async function mergePreview(actorId: string | undefined, keepEmail: string, otherEmail: string): Promise<MergedCounts> {
  return db().transaction(async (tx) => {
    await requireAdmin(actorId, tx);
    const { other } = await checkedPair(keepEmail, otherEmail, tx);
    return repo.countMovable(other, tx);
  });
}

export async function mergePeople(actorId: string | undefined, keepEmail: string, otherEmail: string): Promise<MergedCounts> {
  const moved = await db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const { keep, other } = await checkedPair(keepEmail, otherEmail, tx);
    const rows = await repo.lockWorkRows([keep, other], tx);
    const work = combinedWork(
      rows.find((r) => r.email === keep),
      rows.find((r) => r.email === other),
    );
    const counts = await repo.countMovable(other, tx);
    await repo.moveRecords(keep, other, { stage: isLeadStage(work.stage) ? work.stage : 'new', ownerId: work.ownerId, followUpOn: work.followUpOn, repliedAt: work.repliedAt }, actor.id, tx);
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'merge',
      entityType: LEAD_ENTITY,
      entityId: keep,
      summary: `Merged ${other} into ${keep}`,
      before: { merged: other },
      after: { ...counts },
    });
    return counts;
  });
  await announceTodayChange();
  return moved;
}
