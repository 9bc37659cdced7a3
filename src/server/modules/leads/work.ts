/**
 * Working a lead (issue 23): a person's stage, owner and next follow-up day, and the team's notes on them.
 * Every change is an admin write: admin checked in the transaction, the person's row locked, the change
 * recorded in the activity log (who, before, after), which the person's timeline reads. A follow-up day is
 * a calendar day of the site's time zone, set for today or later.
 */
import { db } from '../../db';
import { dayKeyIn } from '../../../shared/dates';
import { dayHeading, normalizeEmail } from '../../../shared/lead-people';
import { followUpDaySchema, isLeadStage, LEAD_STAGE_LABELS, leadNoteSchema, leadStageLabel, type LeadStage } from '../../../shared/schemas/lead-work';
import { insertActivity } from '../activity/repository';
import { stopSequencesOf } from '../lead-sequences/schedule';
import { listAdmins } from '../audit/repository';
import { siteTimeZone } from '../site/time-zone';
import { announceTodayChange } from '../today/live';
import { requireAdmin } from '../users/service';
import { LeadError } from './errors';
import * as repo from './work-repository';

export { LEAD_ENTITY } from './work-repository';

/** Today's day key in the site's time zone ("2026-11-26"). */
export const siteToday = async (now = new Date()) => dayKeyIn(now, await siteTimeZone());

type Actor = Awaited<ReturnType<typeof requireAdmin>>;

/** The admin write around every change: the actor, the person (who must be a lead), their locked row. */
async function leadWrite<T>(actorId: string | undefined, email: string, work: (tx: repo.Executor, actor: Actor, row: repo.LeadWorkRow, key: string) => Promise<T>) {
  const key = normalizeEmail(email);
  const result = await db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    if (!(await repo.isLead(key, tx))) throw new LeadError('NOT_FOUND', 'No lead has this email address.');
    const row = await repo.lockLeadWork(key, tx);
    return work(tx, actor, row, key);
  });
  // A stage, a follow-up day or "replied" moves people in and out of the overview's Today lists.
  await announceTodayChange();
  return result;
}

const record = (tx: repo.Executor, actor: Actor, key: string, entry: { action: string; summary: string; before: Record<string, unknown> | null; after: Record<string, unknown> }) =>
  insertActivity(tx, { actorId: actor.id, actorEmail: actor.email, entityType: repo.LEAD_ENTITY, entityId: key, ...entry });

/** Notes shown in the panel (the timeline pages through all of them). */
const PANEL_NOTES = 200;

/** The person's working state for their page (a new lead nobody owns when nothing was set yet). */
export async function leadWorkOf(email: string) {
  const key = normalizeEmail(email);
  const [row, notes, admins, today] = await Promise.all([repo.findLeadWork(key), repo.leadNotesOf(key, { before: undefined, limit: PANEL_NOTES }), listAdmins(), siteToday()]);
  return {
    stage: (isLeadStage(row?.stage) ? row.stage : 'new') as LeadStage,
    ownerId: row?.ownerId ?? null,
    followUpOn: row?.followUpOn ?? null,
    repliedAt: row?.repliedAt ?? null,
    // The newest ones, oldest first, as a conversation reads.
    notes: notes.reverse(),
    admins,
    today,
  };
}

/** Moves the (locked) person to `stage` and records who did it: an admin, or the scheduler by name. */
async function writeStage(tx: repo.Executor, key: string, from: string, stage: LeadStage, by: { id: string | null; email: string }) {
  await repo.updateLeadWork(key, { stage }, tx);
  // A booked call, a client or not a fit: no more follow-up mails (the step's own check agrees).
  if (stage === 'call-booked') await stopSequencesOf(tx, key, 'booked');
  else if (stage === 'client' || stage === 'not-a-fit') await stopSequencesOf(tx, key, 'stage');
  await insertActivity(tx, {
    actorId: by.id,
    actorEmail: by.email,
    entityType: repo.LEAD_ENTITY,
    entityId: key,
    action: 'stage',
    summary: `${key}: ${leadStageLabel(from)} → ${LEAD_STAGE_LABELS[stage]}`,
    before: { stage: from },
    after: { stage },
  });
}

export async function setLeadStage(actorId: string | undefined, email: string, stage: LeadStage) {
  return leadWrite(actorId, email, async (tx, actor, row, key) => {
    if (row.stage === stage) return { changed: false };
    await writeStage(tx, key, row.stage, stage, actor);
    return { changed: true };
  });
}

/** Marks that the person answered (their follow-up sequences stop), or takes the mark back. */
export async function setReplied(actorId: string | undefined, email: string, replied: boolean) {
  return leadWrite(actorId, email, async (tx, actor, row, key) => {
    if (Boolean(row.repliedAt) === replied) return { changed: false };
    const at = new Date();
    await repo.updateLeadWork(key, { repliedAt: replied ? at : null }, tx);
    const stopped = replied ? await stopSequencesOf(tx, key, 'replied', at) : 0;
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      entityType: repo.LEAD_ENTITY,
      entityId: key,
      action: 'replied',
      summary: replied ? `${key} marked as replied` : `${key}: “replied” taken back`,
      before: { replied: !replied },
      after: { replied, sequencesStopped: stopped },
    });
    return { changed: true };
  });
}

/**
 * A stage the scheduler set (a call booked, or cancelled back), inside the caller's transaction: no admin
 * behind it, so the activity log names the scheduler (`via`). `keep` leaves a stage as it is (a client who
 * books a call stays a client). Returns the stage before, or undefined when nothing changed.
 */
export async function setStageFromBooking(tx: repo.Executor, email: string, stage: LeadStage, via: string, keep: (current: LeadStage) => boolean = () => false) {
  const key = normalizeEmail(email);
  const row = await repo.lockLeadWork(key, tx);
  const current: LeadStage = isLeadStage(row.stage) ? row.stage : 'new';
  if (current === stage || keep(current)) return undefined;
  await writeStage(tx, key, current, stage, { id: null, email: via });
  return current;
}

/**
 * A report sent is a first contact (issue 35: the request keeps no status of its own): a person still New
 * becomes Contacted, in the caller's transaction, under the admin who sent it. Any later stage stays.
 */
export async function markContacted(tx: repo.Executor, email: string, by: { id: string; email: string }): Promise<boolean> {
  const key = normalizeEmail(email);
  const row = await repo.lockLeadWork(key, tx);
  if (row.stage !== 'new') return false;
  await writeStage(tx, key, 'new', 'contacted', by);
  return true;
}

/**
 * A call was booked or moved (the scheduler, in the caller's transaction): the follow-up moves to the
 * call's day (the site's time zone), so the owner's list has the person on the day they talk, not an
 * older reminder to chase them; without a time, the follow-up is cleared. Recorded under the scheduler's name.
 */
export async function followUpOnCall(tx: repo.Executor, email: string, startsAt: Date | null, timeZone: string, via: string) {
  const key = normalizeEmail(email);
  const row = await repo.lockLeadWork(key, tx);
  const next = startsAt ? dayKeyIn(startsAt, timeZone) : null;
  if (row.followUpOn === next) return;
  await repo.updateLeadWork(key, { followUpOn: next }, tx);
  await insertActivity(tx, {
    actorId: null,
    actorEmail: via,
    entityType: repo.LEAD_ENTITY,
    entityId: key,
    action: 'follow-up',
    summary: `${key}: ${next ? `follow up on ${dayHeading(next)}, the day of the call` : 'no follow-up (a call is booked)'}`,
    before: { followUpOn: row.followUpOn },
    after: { followUpOn: next },
  });
}

/** Gives the lead to an admin (verified, active), or to nobody with null. */
export async function assignLead(actorId: string | undefined, email: string, ownerId: string | null) {
  return leadWrite(actorId, email, async (tx, actor, row, key) => {
    if (row.ownerId === ownerId) return { changed: false };
    const admins = await listAdmins(tx);
    const owner = ownerId === null ? undefined : admins.find((a) => a.id === ownerId);
    if (ownerId !== null && !owner) throw new LeadError('INVALID', 'Choose an admin as the owner.', { ownerId: 'Only an admin can own a lead' });
    const previous = row.ownerId ? (admins.find((a) => a.id === row.ownerId)?.email ?? row.ownerId) : null;
    await repo.updateLeadWork(key, { ownerId }, tx);
    await record(tx, actor, key, { action: 'owner', summary: `${key}: owned by ${owner ? owner.name || owner.email : 'nobody'}`, before: { owner: previous }, after: { owner: owner?.email ?? null } });
    return { changed: true };
  });
}

/** The next day to follow up (today or later, in the site's time zone), or none with null. */
export async function setFollowUp(actorId: string | undefined, email: string, day: unknown) {
  const parsed = followUpDaySchema.safeParse(day);
  if (!parsed.success) throw new LeadError('INVALID', 'Please correct the follow-up date.', { followUpOn: parsed.error.issues[0]!.message });
  const today = await siteToday();
  return leadWrite(actorId, email, async (tx, actor, row, key) => {
    const next = parsed.data;
    if (row.followUpOn === next) return { changed: false };
    if (next !== null && next < today) {
      throw new LeadError('INVALID', 'Please correct the follow-up date.', { followUpOn: `Choose today (${dayHeading(today)}) or a later day` });
    }
    await repo.updateLeadWork(key, { followUpOn: next }, tx);
    await record(tx, actor, key, {
      action: 'follow-up',
      summary: `${key}: ${next ? `follow up on ${dayHeading(next)}` : 'no follow-up'}`,
      before: { followUpOn: row.followUpOn },
      after: { followUpOn: next },
    });
    return { changed: true };
  });
}

/** A note by the team on the person; never shown or sent to them. */
export async function addLeadNote(actorId: string | undefined, email: string, body: unknown) {
  const parsed = leadNoteSchema.safeParse({ body });
  if (!parsed.success) throw new LeadError('INVALID', 'Please correct the note.', { body: parsed.error.issues[0]!.message });
  return leadWrite(actorId, email, async (tx, actor, _row, key) => {
    const note = await repo.insertLeadNote(tx, { email: key, authorId: actor.id, authorName: actor.name.trim() || actor.email, body: parsed.data.body });
    await record(tx, actor, key, { action: 'note', summary: `Note on ${key}`, before: null, after: { note: parsed.data.body } });
    return note;
  });
}

/** The admins a lead can be given to (the leads list's owner filter, the person's panel). */
export const leadOwners = () => listAdmins();

/** What the overview shows: follow-ups due today and overdue, soonest first. */
export async function followUpsDue(limit = 5) {
  const today = await siteToday();
  return { today, ...(await repo.dueFollowUps(today, limit)) };
}
