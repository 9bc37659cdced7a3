/** Bookings from the scheduler's webhooks: data access only (Drizzle). */
import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { bookingChanges, bookings, webhookDeliveries } from '../../db/schema';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
type Reader = Pick<Database, 'select'>;
export type BookingRow = typeof bookings.$inferSelect;

/** How long a delivery's key is kept: far longer than a signature is accepted (BOOKING_WEBHOOK_TOLERANCE_SECONDS). */
const DELIVERY_KEPT_MS = 24 * 60 * 60 * 1000;

/** Takes a delivery once: false when its key was taken before (a replay). Forgets keys older than a day. */
export async function takeDelivery(provider: string, deliveryKey: string, now: Date, tx: Executor): Promise<boolean> {
  await tx.delete(webhookDeliveries).where(lt(webhookDeliveries.receivedAt, new Date(now.getTime() - DELIVERY_KEPT_MS)));
  const taken = await tx.insert(webhookDeliveries).values({ provider, deliveryKey, receivedAt: now }).onConflictDoNothing().returning({ key: webhookDeliveries.deliveryKey });
  return taken.length > 0;
}

/** The booking with this provider id, locked until the transaction ends (two deliveries of one booking queue). */
export async function lockBooking(provider: string, externalId: string, tx: Executor): Promise<BookingRow | undefined> {
  const [row] = await tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.provider, provider), eq(bookings.externalId, externalId)))
    .for('update');
  return row;
}

/** A new booking; undefined when another delivery made it first (the two queue on the unique provider id). */
export async function insertBooking(tx: Executor, row: Omit<BookingRow, 'id' | 'createdAt' | 'updatedAt'>): Promise<BookingRow | undefined> {
  const [made] = await tx
    .insert(bookings)
    .values({ id: crypto.randomUUID(), ...row })
    .onConflictDoNothing({ target: [bookings.provider, bookings.externalId] })
    .returning();
  return made;
}

export async function updateBooking(tx: Executor, id: string, patch: Partial<Pick<BookingRow, 'externalId' | 'startsAt' | 'status' | 'stageBefore'>>) {
  await tx
    .update(bookings)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(bookings.id, id));
}

export async function insertBookingChange(tx: Executor, change: { bookingId: string; email: string; action: 'rescheduled' | 'cancelled'; startsAt: Date | null }) {
  await tx.insert(bookingChanges).values({ id: crypto.randomUUID(), ...change });
}

/** Whether the person has another booking still on. */
export async function hasOtherActiveBooking(email: string, exceptId: string, ex: Reader): Promise<boolean> {
  const [row] = await ex
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.email, email), eq(bookings.status, 'booked'), ne(bookings.id, exceptId)))
    .limit(1);
  return Boolean(row);
}

/** The bookings by id (the timeline's "booked a call" events name theirs). */
export async function bookingsByIds(ids: readonly string[], ex: Reader = db()) {
  if (ids.length === 0) return [];
  return ex
    .select({ id: bookings.id, provider: bookings.provider, startsAt: bookings.startsAt, status: bookings.status })
    .from(bookings)
    .where(inArray(bookings.id, [...ids]));
}

/** A person's booking changes for the timeline, newest first, before the cursor. */
export async function bookingChangesOf(email: string, w: { before: Date | undefined; limit: number }, ex: Reader = db()) {
  return ex
    .select({ id: bookingChanges.id, at: bookingChanges.at, action: bookingChanges.action, startsAt: bookingChanges.startsAt, provider: bookings.provider })
    .from(bookingChanges)
    .innerJoin(bookings, eq(bookings.id, bookingChanges.bookingId))
    .where(and(eq(bookingChanges.email, email), w.before ? lt(bookingChanges.at, w.before) : undefined))
    .orderBy(desc(bookingChanges.at), desc(bookingChanges.id))
    .limit(w.limit);
}

/** The person's next booked call from `now` on, for their page. */
export async function nextBookingOf(email: string, now: Date, ex: Reader = db()) {
  const [row] = await ex
    .select({ id: bookings.id, provider: bookings.provider, startsAt: bookings.startsAt })
    .from(bookings)
    .where(and(eq(bookings.email, email), eq(bookings.status, 'booked'), sql`(${bookings.startsAt} is null or ${bookings.startsAt} >= ${now})`))
    .orderBy(sql`${bookings.startsAt} asc nulls last`)
    .limit(1);
  return row;
}

