/**
 * The reads behind the overview's Today and the admin pages' live counts (issue 35): data access only, one
 * query each, on existing indexes. Which request waits for a report is read from the reports themselves
 * (audit/repository.ts `waitingForReport`), never from the request's status.
 */
import { asc, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { auditRequests, chatConversations, siteAuditRuns } from '../../db/schema';
import type { AdminSignals } from '../../../shared/admin-signals';
import { waitingForReport } from '../audit/repository';
import { LEAD_ENTITY } from '../leads/work-repository';

/** Mails the team sends a person itself: one written to them (leads/mail.ts), a report sent again. */
const TEAM_MAIL_KINDS = sql`'lead-mail', 'audit-report'`;
/** Stages past waiting for a follow-up (src/shared/schemas/lead-work.ts). */
const STAGES_PAST_WAITING = sql`'call-booked', 'client', 'not-a-fit'`;

type Reader = Pick<Database, 'select' | 'execute'>;

const n = (v: unknown) => Number(v ?? 0);
const at = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

/** The title's and the badges' numbers: two counts over small tables, in one statement. */
export async function readSignals(ex: Reader = db()): Promise<AdminSignals> {
  const result = (await ex.execute(sql`
    select
      (select count(*) from ${chatConversations} where ${chatConversations.unreadForAdmin} > 0) as unread_chats,
      (select count(*) from ${chatConversations} where ${chatConversations.status} = 'open') as open_chats,
      (select count(*) from ${chatConversations}) as all_chats,
      (select count(*) from ${auditRequests} where ${waitingForReport}) as waiting_requests
  `)) as unknown as { rows: Record<string, unknown>[] };
  const row = result.rows[0] ?? {};
  return { unreadChats: n(row.unread_chats), openChats: n(row.open_chats), allChats: n(row.all_chats), waitingRequests: n(row.waiting_requests) };
}

export interface WaitingRequestRow {
  id: string;
  createdAt: Date;
  fullName: string;
  businessName: string;
  website: string;
  /** The newest check's state ('queued' | 'running' | 'done' | 'failed'), or null when none was made (no website). */
  checkStatus: string | null;
  /** The newest finished check's score, when it could score. */
  score: number | null;
}

/**
 * Requests waiting for a report, oldest first (the longest wait first, like a queue), with their website
 * check (site_audit_runs_request_idx): at most `limit`, and how many there are.
 */
/** The outer row's id, qualified: Drizzle leaves a single table's columns bare in the select list. */
const requestId = sql`${sql.identifier('audit_requests')}.${sql.identifier('id')}`;

export async function waitingRequests(limit: number, ex: Reader = db()): Promise<{ rows: WaitingRequestRow[]; total: number }> {
  const rows = await ex
    .select({
      id: auditRequests.id,
      createdAt: auditRequests.createdAt,
      fullName: auditRequests.fullName,
      businessName: auditRequests.businessName,
      website: auditRequests.website,
      checkStatus: sql<string | null>`(select r.status from ${siteAuditRuns} r where r.request_id = ${requestId} order by r.created_at desc limit 1)`,
      score: sql<number | null>`(select r.score from ${siteAuditRuns} r where r.request_id = ${requestId} and r.status = 'done' order by r.created_at desc limit 1)`,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(auditRequests)
    .where(waitingForReport)
    .orderBy(asc(auditRequests.createdAt), asc(auditRequests.id))
    .limit(limit);
  return { rows: rows.map(({ total: _total, ...row }) => ({ ...row, score: row.score === null ? null : Number(row.score) })), total: rows[0]?.total ?? 0 };
}

export interface OpenedReportRow {
  email: string;
  requestId: string;
  fullName: string;
  businessName: string;
  openedAt: Date;
  /** Openings of every report sent to them. */
  openings: number;
}

/**
 * People whose report was opened with no reply from the team since its latest opening, the most recent
 * opening first. A reply is anything the data records after that opening: a mail the team wrote to them
 * (or a report sent again; automatic sequence mails do not count), an admin's chat message in their chat
 * (their chat lead's, or their account's), a booking, a stage change, or "Mark as replied". A person
 * whose stage is past waiting (call booked, client, not a fit) is not listed.
 * Indexes: mail_queue_to_created_idx, bookings_email_idx, activity_entity_idx, lead_events_person_at_idx,
 * chat_conversations_user_idx, chat_messages_conversation_idx; the reports themselves are few.
 */
export async function openedWithoutReply(limit: number, ex: Reader = db()): Promise<{ rows: OpenedReportRow[]; total: number }> {
  const result = (await ex.execute(sql`
    with opened as (
      select distinct on (lower(r.sent_to)) lower(r.sent_to) as email, r.request_id, r.last_opened_at as opened_at,
        sum(r.open_count) over (partition by lower(r.sent_to)) as openings
      from audit_reports r
      where r.last_opened_at is not null
      order by lower(r.sent_to), r.last_opened_at desc
    )
    select o.email, o.request_id, o.opened_at, o.openings, q.full_name, q.business_name, count(*) over () as total
    from opened o
    join audit_requests q on q.id = o.request_id
    left join lead_people p on p.email = o.email
    where coalesce(p.stage, 'new') not in (${STAGES_PAST_WAITING})
      and (p.replied_at is null or p.replied_at < o.opened_at)
      and not exists (select 1 from mail_queue m where lower(m."to") = o.email and m.created_at > o.opened_at and m.kind in (${TEAM_MAIL_KINDS}))
      and not exists (select 1 from bookings b where b.email = o.email and b.created_at > o.opened_at)
      and not exists (select 1 from activity_log a where a.entity_type = ${LEAD_ENTITY} and a.entity_id = o.email and a.action = 'stage' and a.at > o.opened_at)
      and not exists (
        select 1 from chat_messages cm
        where cm.author = 'admin' and cm.created_at > o.opened_at and cm.conversation_id in (
          select c.id from chat_conversations c where c.user_id = q.user_id
          union all
          select e.ref_id from lead_events e where lower(e.email) = o.email and e.kind = 'chat-lead'
        )
      )
    order by o.opened_at desc, o.email
    limit ${limit}
  `)) as unknown as { rows: Record<string, unknown>[] };
  return {
    rows: result.rows.map((r) => ({
      email: String(r.email),
      requestId: String(r.request_id),
      fullName: String(r.full_name ?? ''),
      businessName: String(r.business_name ?? ''),
      openedAt: at(r.opened_at),
      openings: n(r.openings),
    })),
    total: n(result.rows[0]?.total),
  };
}
