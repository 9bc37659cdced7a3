/** Follow-up sequences: data access only (Drizzle). */
import { and, asc, desc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { erasedKeySql } from '../leads/erased';
import { appConfig, bookings, leadAliases, leadPeople, users, leadSequenceEnrollments, leadSequenceSends, leadSequences, mailUnsubscribes } from '../../db/schema';
import { DEFAULT_QUIET_HOURS, quietHoursSchema, type QuietHours, type SequenceStep, type SequenceStopReason, type SequenceTrigger } from '../../../shared/schemas/lead-sequences';
import type { PersonStop } from '../../../shared/sequence-enrolment';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;
type Reader = Pick<Database, 'select'>;
export type SequenceRow = typeof leadSequences.$inferSelect;
export type EnrollmentRow = typeof leadSequenceEnrollments.$inferSelect;

const QUIET_HOURS_KEY = 'leadSequenceQuietHours';

export const listSequences = (ex: Reader = db()) => ex.select().from(leadSequences).orderBy(asc(leadSequences.trigger));

export async function findSequence(trigger: string, ex: Reader = db()): Promise<SequenceRow | undefined> {
  const [row] = await ex.select().from(leadSequences).where(eq(leadSequences.trigger, trigger));
  return row;
}

export async function lockSequence(trigger: SequenceTrigger, tx: Executor): Promise<SequenceRow> {
  await tx.insert(leadSequences).values({ trigger }).onConflictDoNothing();
  const [row] = await tx.select().from(leadSequences).where(eq(leadSequences.trigger, trigger)).for('update');
  return row!;
}

export async function updateSequence(tx: Executor, trigger: SequenceTrigger, patch: { active: boolean; steps: SequenceStep[] }) {
  const [row] = await tx
    .update(leadSequences)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(leadSequences.trigger, trigger))
    .returning();
  return row!;
}

export async function readQuietHours(ex: Reader = db()): Promise<QuietHours> {
  const [row] = await ex.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, QUIET_HOURS_KEY));
  const parsed = quietHoursSchema.safeParse(row?.value);
  return parsed.success ? parsed.data : DEFAULT_QUIET_HOURS;
}

export async function writeQuietHours(tx: Executor, quiet: QuietHours) {
  await tx
    .insert(appConfig)
    .values({ key: QUIET_HOURS_KEY, value: quiet })
    .onConflictDoUpdate({ target: appConfig.key, set: { value: quiet, updatedAt: new Date() } });
}

/** Enrols once per trigger and person: undefined when they were enrolled before (whatever came of it). */
export async function insertEnrollment(tx: Executor, row: { trigger: SequenceTrigger; email: string; name: string; refId: string | null; consentedAt: Date; enrolledAt: Date }) {
  const [inserted] = await tx
    .insert(leadSequenceEnrollments)
    .values({ id: crypto.randomUUID(), ...row })
    .onConflictDoNothing()
    .returning();
  return inserted;
}

export async function findEnrollment(id: string, ex: Reader = db()): Promise<EnrollmentRow | undefined> {
  const [row] = await ex.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.id, id));
  return row;
}

export async function lockEnrollment(id: string, tx: Executor): Promise<EnrollmentRow | undefined> {
  const [row] = await tx.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.id, id)).for('update');
  return row;
}

export async function updateEnrollment(tx: Executor, id: string, patch: Partial<Pick<EnrollmentRow, 'nextStep' | 'nextAt' | 'status' | 'stopReason' | 'endedAt'>>) {
  await tx.update(leadSequenceEnrollments).set(patch).where(eq(leadSequenceEnrollments.id, id));
}

/** Ends the running enrolments of a person, or of a sequence (turned off); returns how many. */
export async function stopEnrollments(tx: Executor, of: { email: string } | { trigger: SequenceTrigger }, reason: SequenceStopReason, at: Date): Promise<number> {
  const whose = 'email' in of ? eq(leadSequenceEnrollments.email, of.email) : eq(leadSequenceEnrollments.trigger, of.trigger);
  const stopped = await tx
    .update(leadSequenceEnrollments)
    .set({ status: 'stopped', stopReason: reason, nextAt: null, endedAt: at })
    .where(and(whose, eq(leadSequenceEnrollments.status, 'active')))
    .returning({ id: leadSequenceEnrollments.id });
  return stopped.length;
}

/** The person's enrolments stopped for `reason`, locked (a booking's cancellation resumes those it stopped). */
export async function lockStoppedEnrollments(tx: Executor, email: string, reason: SequenceStopReason): Promise<EnrollmentRow[]> {
  return tx
    .select()
    .from(leadSequenceEnrollments)
    .where(and(eq(leadSequenceEnrollments.email, email), eq(leadSequenceEnrollments.status, 'stopped'), eq(leadSequenceEnrollments.stopReason, reason)))
    .orderBy(asc(leadSequenceEnrollments.enrolledAt))
    .for('update');
}

/** Marks a step as sent (or skipped); false when it was already (another run, another process). */
export async function claimSend(tx: Executor, send: { enrollmentId: string; step: number; mailId: string | null; skipReason?: string; at: Date }): Promise<boolean> {
  const [claimed] = await tx.insert(leadSequenceSends).values(send).onConflictDoNothing().returning({ step: leadSequenceSends.step });
  return Boolean(claimed);
}

/** The person's enrolments, newest first, with the steps sent or skipped. */
export async function enrollmentsOf(email: string, ex: Reader = db()) {
  const rows = await ex.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, email)).orderBy(desc(leadSequenceEnrollments.enrolledAt));
  const sends = rows.length
    ? await ex
        .select()
        .from(leadSequenceSends)
        .where(inArray(leadSequenceSends.enrollmentId, rows.map((r) => r.id)))
        .orderBy(asc(leadSequenceSends.step))
    : [];
  return rows.map((row) => ({ ...row, sends: sends.filter((s) => s.enrollmentId === row.id) }));
}

/**
 * The stops of decision 049 over an address (an SQL expression of a lower-cased email), in the order their
 * reason is named: unsubscribed, a reply marked, a call booked (the stage, or a live booking), a client or
 * not a fit. One list for the step's check and for who may be enrolled.
 */
function stopRules(email: SQL): [PersonStop, SQL][] {
  const person = (holds: SQL) => sql`exists (select 1 from ${leadPeople} where ${leadPeople.email} = ${email} and ${holds})`;
  return [
    // An erased person's record is kept under a hash of the address (decision 063): it holds if they come
    // back. An address merged into the person (lead_aliases) that unsubscribed speaks for them too.
    [
      'unsubscribed',
      sql`exists (select 1 from ${mailUnsubscribes} where (${mailUnsubscribes.email} in (${email}, ${erasedKeySql(email)}) or ${mailUnsubscribes.email} in (select ${leadAliases.alias} from ${leadAliases} where ${leadAliases.email} = ${email})) and ${mailUnsubscribes.unsubscribedAt} is not null)`,
    ],
    ['replied', person(sql`${leadPeople.repliedAt} is not null`)],
    ['booked', person(sql`${leadPeople.stage} = 'call-booked'`)],
    ['stage', person(sql`${leadPeople.stage} in ('client', 'not-a-fit')`)],
    ['booked', sql`exists (select 1 from ${bookings} where ${bookings.email} = ${email} and ${bookings.status} = 'booked')`],
  ];
}

/** True when no stop holds for the address (an SQL expression). */
export const noStopFor = (email: SQL): SQL => sql`not (${sql.join(
  stopRules(email).map(([, holds]) => holds),
  sql` or `,
)})`;

/** Why no more sequence mail may go to the person (checked in the sending transaction); undefined: go on. */
export async function stopReasonOf(email: string, ex: Pick<Database, 'execute'>): Promise<PersonStop | undefined> {
  const cases = stopRules(sql`${email}`).map(([reason, holds]) => sql`when ${holds} then ${reason}`);
  const { rows } = (await ex.execute(sql`select case ${sql.join(cases, sql` `)} end as reason`)) as unknown as { rows: { reason: PersonStop | null }[] };
  return rows[0]?.reason ?? undefined;
}

/** Whether the address is an admin's (better-auth keeps users.email lower-cased). */
export async function isAdminEmail(email: string, ex: Reader): Promise<boolean> {
  const [row] = await ex.select({ id: users.id }).from(users).where(and(eq(users.email, email), eq(users.role, 'admin'))).limit(1);
  return Boolean(row);
}

// Unsubscribing ------------------------------------------------------------------------------------------

/** Stores the address's link (its hash); a changed secret replaces the old one. */
export async function saveUnsubscribeLink(tx: Executor, email: string, tokenHash: string) {
  await tx
    .insert(mailUnsubscribes)
    .values({ email, tokenHash })
    .onConflictDoUpdate({ target: mailUnsubscribes.email, set: { tokenHash }, where: ne(mailUnsubscribes.tokenHash, tokenHash) });
}

export async function findUnsubscribeByHash(tokenHash: string, ex: Reader = db()) {
  const [row] = await ex.select().from(mailUnsubscribes).where(eq(mailUnsubscribes.tokenHash, tokenHash));
  return row;
}

/** Marks the address unsubscribed; false when it was already. */
export async function markUnsubscribed(tx: Executor, email: string, at: Date): Promise<boolean> {
  const [row] = await tx
    .update(mailUnsubscribes)
    .set({ unsubscribedAt: at })
    .where(and(eq(mailUnsubscribes.email, email), sql`${mailUnsubscribes.unsubscribedAt} is null`))
    .returning({ email: mailUnsubscribes.email });
  return Boolean(row);
}

export async function unsubscribedAtOf(email: string, ex: Reader = db()): Promise<Date | null> {
  const [row] = await ex.select({ at: mailUnsubscribes.unsubscribedAt }).from(mailUnsubscribes).where(and(eq(mailUnsubscribes.email, email), isNotNull(mailUnsubscribes.unsubscribedAt)));
  return row?.at ?? null;
}
