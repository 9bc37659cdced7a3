/**
 * Who may be enrolled in a sequence other than by its trigger (issue 35, decision 054), and the sequences'
 * numbers: data access only, in SQL, so turning a sequence on for 20,000 people who already agreed is one
 * statement, not 20,000 round trips.
 */
import { sql, type SQL } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { auditReports, auditRequests, bookings, chatConversations, leadPeople, leadSequenceEnrollments, leadSequenceSends, mailUnsubscribes } from '../../db/schema';
import { insertJobsFrom } from '../../jobs/queue';
import { SEQUENCE_TRIGGERS, type SequenceTrigger } from '../../../shared/schemas/lead-sequences';
import type { SequenceNumbers, Waiting } from '../../../shared/sequence-enrolment';
import { adminEmails } from '../leads/team';
import { noStopFor } from './repository';
import { SEQUENCE_STEP_JOB } from './schedule';

type Executor = Pick<Database, 'execute'>;
const rowsOf = async <T>(ex: Executor, query: SQL) => ((await ex.execute(query)) as unknown as { rows: T[] }).rows;
const num = (v: unknown) => Number(v ?? 0);

/**
 * The people who agreed on the form a trigger relies on, one row each (their latest such form):
 * `(email, name, ref_id, consented_at)`, the email lower-cased. The audit form's consent is required;
 * the report's sequence relies on the request's and needs a report sent; the chat's box counts when it
 * was ticked on the conversation's latest contact form (the one its address comes from).
 */
function consentedSql(trigger: SequenceTrigger, email?: string): SQL {
  if (trigger === 'chat-lead') {
    const address = sql`lower(c.contact_email)`;
    return sql`select distinct on (${address}) ${address} as email, c.contact_name as name, c.id as ref_id, c.contact_consent_at as consented_at
      from ${chatConversations} c
      where c.contact_email <> '' and c.contact_consent_at >= c.contact_at ${email ? sql`and ${address} = ${email}` : sql``}
      order by ${address}, c.contact_consent_at desc, c.id`;
  }
  const address = sql`lower(r.email)`;
  const reportSent = trigger === 'report-sent' ? sql`and exists (select 1 from ${auditReports} rep where rep.request_id = r.id)` : sql``;
  return sql`select distinct on (${address}) ${address} as email, r.full_name as name, r.id as ref_id, r.consent_at as consented_at
    from ${auditRequests} r
    where true ${reportSent} ${email ? sql`and ${address} = ${email}` : sql``}
    order by ${address}, r.created_at desc, r.id desc`;
}

/**
 * The people a trigger's sequence may take now: they agreed, were never in it (a sequence does not
 * restart), are not the team, and nothing stops it for them (unsubscribed, replied, booked, a client or
 * not a fit): what the trigger itself would enrol.
 */
function waitingSql(trigger: SequenceTrigger, email?: string): SQL {
  return sql`select w.* from (${consentedSql(trigger, email)}) w
    where not exists (select 1 from ${leadSequenceEnrollments} e where e.trigger = ${trigger} and e.email = w.email)
      and w.email not in (${adminEmails})
      and ${noStopFor(sql`w.email`)}`;
}

export const NOBODY_WAITING: Waiting = { count: 0, oldest: null, newest: null };

/** Per trigger, how many people its sequence may take now, in one query. */
export async function waitingCounts(triggers: readonly SequenceTrigger[] = SEQUENCE_TRIGGERS, ex: Executor = db()): Promise<Partial<Record<SequenceTrigger, Waiting>>> {
  const parts = triggers.map(
    (t) => sql`select ${t}::text as trigger, count(*)::int as n,
      (extract(epoch from min(consented_at)) * 1000)::float8 as oldest, (extract(epoch from max(consented_at)) * 1000)::float8 as newest
      from (${waitingSql(t)}) waiting`,
  );
  const rows = await rowsOf<{ trigger: SequenceTrigger; n: unknown; oldest: unknown; newest: unknown }>(ex, sql.join(parts, sql` union all `));
  const at = (v: unknown) => (v === null || v === undefined ? null : Math.round(num(v)));
  return Object.fromEntries(rows.map((r) => [r.trigger, { count: num(r.n), oldest: at(r.oldest), newest: at(r.newest) }]));
}

/**
 * Enrols everyone waiting for the trigger's sequence (or only `email`), as of `now`, their first step due
 * at `firstAt` and its job queued, in one statement of the caller's transaction. The unique (trigger,
 * email) index keeps a person who got in meanwhile (their trigger, another admin) in once. Returns how many.
 */
export async function enrolWaiting(tx: Executor, trigger: SequenceTrigger, at: { now: Date; firstAt: Date }, email?: string): Promise<number> {
  const [row] = await rowsOf<{ n: unknown }>(
    tx,
    sql`with added as (
        insert into ${leadSequenceEnrollments} (id, trigger, email, name, ref_id, consented_at, enrolled_at, next_step, next_at, status)
        select gen_random_uuid()::text, ${trigger}::text, w.email, w.name, w.ref_id, w.consented_at, ${at.now}::timestamptz, 0, ${at.firstAt}::timestamptz, 'active'
        from (${waitingSql(trigger, email)}) w
        on conflict do nothing
        returning id
      ),
      queued as (${insertJobsFrom(SEQUENCE_STEP_JOB, sql`select ${SEQUENCE_STEP_JOB}::text || ':' || added.id || ':0', jsonb_build_object('enrollmentId', added.id, 'step', 0) from added`, at.firstAt)})
      select count(*)::int as n from added`,
  );
  return num(row?.n);
}

/** Per trigger, whether the person agreed on its form (see consentedSql). */
export async function consentsOf(email: string, ex: Executor = db()): Promise<Record<SequenceTrigger, boolean>> {
  const checks = SEQUENCE_TRIGGERS.map((t) => sql`exists (${consentedSql(t, email)}) as ${sql.identifier(t)}`);
  const [row] = await rowsOf<Record<SequenceTrigger, boolean>>(ex, sql`select ${sql.join(checks, sql`, `)}`);
  return Object.fromEntries(SEQUENCE_TRIGGERS.map((t) => [t, Boolean(row?.[t])])) as Record<SequenceTrigger, boolean>;
}

export const NO_NUMBERS: SequenceNumbers = { enrolled: 0, running: 0, sent: 0, replied: 0, booked: 0, unsubscribed: 0 };

/**
 * Every sequence's numbers in one query. Replied, booked and unsubscribed count each person at most once
 * and only after their enrolment: a booking made since (the webhook), or the sequence stopped because
 * they were moved to "Call booked".
 */
export async function sequenceNumbers(ex: Executor = db()): Promise<Partial<Record<SequenceTrigger, SequenceNumbers>>> {
  const rows = await rowsOf<Record<string, unknown>>(
    ex,
    sql`select e.trigger,
        count(*)::int as enrolled,
        count(*) filter (where e.status = 'active')::int as running,
        coalesce(sum(s.sent), 0)::int as sent,
        count(*) filter (where p.replied_at >= e.enrolled_at)::int as replied,
        count(*) filter (where e.stop_reason = 'booked'
          or exists (select 1 from ${bookings} b where b.email = e.email and b.created_at >= e.enrolled_at))::int as booked,
        count(*) filter (where u.unsubscribed_at >= e.enrolled_at)::int as unsubscribed
      from ${leadSequenceEnrollments} e
      left join (select enrollment_id, count(*) filter (where mail_id is not null) as sent from ${leadSequenceSends} group by enrollment_id) s on s.enrollment_id = e.id
      left join ${leadPeople} p on p.email = e.email
      left join ${mailUnsubscribes} u on u.email = e.email
      group by e.trigger`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      String(r.trigger),
      { enrolled: num(r.enrolled), running: num(r.running), sent: num(r.sent), replied: num(r.replied), booked: num(r.booked), unsubscribed: num(r.unsubscribed) },
    ]),
  );
}
