/**
 * A booking comes back (issue 23, decision 047): a verified webhook's notice becomes, in one transaction,
 * the delivery taken once (a replay is refused), the booking's row, a "call booked" lead event on the person
 * (matched by email; a new email is a new lead, attributed by the scheduler's UTM values), the person moved
 * to "Call booked" (or back when the call is cancelled, with the follow-up sequences the booking stopped
 * resumed where their schedule allows), and the booking's later changes for the timeline.
 */
import { db } from '../../db';
import { BOOKING_PROVIDER_LABELS, type BookingNotice } from '../../../shared/booking-webhooks';
import { CALL_BOOKED_KIND } from '../../../shared/lead-events';
import { SEQUENCE_TRIGGER_LABELS } from '../../../shared/schemas/lead-sequences';
import type { LeadStage } from '../../../shared/schemas/lead-work';
import { findMemberByEmail } from '../leads/people-repository';
import { insertLeadEvent } from '../leads/repository';
import { followUpOnCall, setStageFromBooking } from '../leads/work';
import { insertActivity } from '../activity/repository';
import { resumeSequencesAfterCancelledCall, timingNow } from '../lead-sequences/schedule';
import { LEAD_ENTITY } from '../leads/work-repository';
import { announceTodayChange } from '../today/live';
import * as repo from './repository';

export type BookingOutcome =
  | { kind: 'replay' }
  /** A cancellation of a booking this site never heard of: nothing to undo. */
  | { kind: 'unknown-booking' }
  | { kind: 'recorded'; bookingId: string; action: BookingNotice['action'] | 'unchanged' };

/** The stage a cancelled call leaves the person in when nothing was recorded before it. */
const STAGE_AFTER_UNKNOWN: LeadStage = 'contacted';

export async function receiveBooking(delivery: { deliveryKey: string }, notice: BookingNotice, now: Date = new Date()): Promise<BookingOutcome> {
  const via = BOOKING_PROVIDER_LABELS[notice.provider];
  // Read before the transaction (PGlite has one connection): the day a call falls on, and the clock and
  // quiet hours a resumed sequence is timed by.
  const timing = await timingNow(now);
  const timeZone = timing.timeZone;
  const outcome = await db().transaction(async (tx): Promise<BookingOutcome> => {
    if (!(await repo.takeDelivery(notice.provider, delivery.deliveryKey, now, tx))) return { kind: 'replay' };

    // A client who books another call stays a client; anyone else now has a call booked.
    const bookCall = () => setStageFromBooking(tx, notice.email, 'call-booked', via, (current) => current === 'client');

    const current = await repo.lockBooking(notice.provider, notice.externalId, tx);
    const previous = notice.previousExternalId ? await repo.lockBooking(notice.provider, notice.previousExternalId, tx) : undefined;
    const booking = current ?? previous;

    if (notice.action === 'cancelled') {
      if (!booking) return { kind: 'unknown-booking' };
      if (booking.status === 'cancelled') return { kind: 'recorded', bookingId: booking.id, action: 'unchanged' };
      await repo.updateBooking(tx, booking.id, { status: 'cancelled' });
      await repo.insertBookingChange(tx, { bookingId: booking.id, email: booking.email, action: 'cancelled', startsAt: booking.startsAt });
      // Back to where the person was, unless another call is still on or the team moved them on since; the
      // follow-up sequences the booking stopped go on where their schedule allows.
      if (!(await repo.hasOtherActiveBooking(booking.email, booking.id, tx))) {
        await setStageFromBooking(tx, booking.email, booking.stageBefore && booking.stageBefore !== 'call-booked' ? (booking.stageBefore as LeadStage) : STAGE_AFTER_UNKNOWN, via, (stage) => stage !== 'call-booked');
        const resumed = await resumeSequencesAfterCancelledCall(tx, booking.email, timing);
        if (resumed.length) {
          await insertActivity(tx, {
            actorId: null,
            actorEmail: via,
            entityType: LEAD_ENTITY,
            entityId: booking.email,
            action: 'sequence-resumed',
            summary: `${booking.email}: ${resumed.map((t) => `“${SEQUENCE_TRIGGER_LABELS[t]}”`).join(', ')} resumed, the call was cancelled`,
            before: null,
            after: { triggers: resumed },
          });
        }
      }
      return { kind: 'recorded', bookingId: booking.id, action: 'cancelled' };
    }

    if (booking) {
      const moved = booking.externalId !== notice.externalId || booking.startsAt?.getTime() !== notice.startsAt?.getTime();
      const revived = booking.status === 'cancelled';
      if (!moved && !revived) return { kind: 'recorded', bookingId: booking.id, action: 'unchanged' };
      const stageBefore = await bookCall();
      await repo.updateBooking(tx, booking.id, { externalId: notice.externalId, startsAt: notice.startsAt, status: 'booked', ...(stageBefore ? { stageBefore } : {}) });
      await repo.insertBookingChange(tx, { bookingId: booking.id, email: booking.email, action: 'rescheduled', startsAt: notice.startsAt });
      await followUpOnCall(tx, booking.email, notice.startsAt, timeZone, via);
      return { kind: 'recorded', bookingId: booking.id, action: 'rescheduled' };
    }

    // A new booking (or a reschedule of one this site missed): a lead event, then the stage.
    const made = await repo.insertBooking(tx, { provider: notice.provider, externalId: notice.externalId, email: notice.email, startsAt: notice.startsAt, status: 'booked', stageBefore: null });
    // Two deliveries of one new booking at once: the other one recorded it.
    if (!made) return { kind: 'recorded', bookingId: (await repo.lockBooking(notice.provider, notice.externalId, tx))!.id, action: 'unchanged' };
    await insertLeadEvent(tx, { kind: CALL_BOOKED_KIND, email: notice.email, name: notice.name, userId: (await findMemberByEmail(notice.email, tx))?.id ?? null, refId: made.id, attribution: notice.attribution });
    const stageBefore = await bookCall();
    if (stageBefore) await repo.updateBooking(tx, made.id, { stageBefore });
    await followUpOnCall(tx, notice.email, notice.startsAt, timeZone, via);
    return { kind: 'recorded', bookingId: made.id, action: 'booked' };
  });
  // A booking is a reply and moves the stage and the follow-up: Today's lists change.
  if (outcome.kind === 'recorded') await announceTodayChange();
  return outcome;
}
