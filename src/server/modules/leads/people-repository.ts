/**
 * Leads by person: data access only (Drizzle). A person is a lower-cased email of lead_events; the list
 * aggregates per person in SQL (one page at a time), and each timeline source is read newest first with a
 * limit, so a member with 100,000 page-time rows costs one indexed range scan (page_times_user_at_idx).
 */
import { and, desc, eq, inArray, isNull, lt, lte, ne, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { activityLog, auditNotes, auditRequests, chatConversations, chatMessages, leadAliases, leadEvents, leadPeople, leadPersonStats, leadProfiles, mailQueue, pageTimes, users } from '../../db/schema';
import type { LeadKind } from '../../../shared/lead-events';
import type { PeopleSort } from '../../../shared/lead-people';
import type { LeadStage } from '../../../shared/schemas/lead-work';
import { actorNameOf } from '../activity/repository';
import { requestReportColumns } from '../audit/repository';
import { AUDIT_ENTITY } from '../audit/service';
import { notByTeam, statsNotByTeam } from './team';

type Reader = Pick<Database, 'select' | '$with' | 'with'>;

const n = (v: unknown) => Number(v ?? 0);
/** A timestamp aggregate as epoch milliseconds: the same number on PGlite and node-postgres. */
const epochMs = (expr: SQL) => sql<number>`floor(extract(epoch from ${expr}) * 1000)::float8`;
const dateOf = (v: unknown) => new Date(n(v));
const escapeLike = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const personEmail = sql<string>`lower(${leadEvents.email})`;
/** The admin who owns a lead (users joined a second time, beside the person's own account). */
const owners = alias(users, 'owners');
const stats = leadPersonStats;
/** Each kind's count in a person's summary row (lead_person_stats, decision 050). */
const KIND_COUNTS: Record<LeadKind, AnyPgColumn> = {
  'audit-request': stats.audits,
  'chat-lead': stats.chats,
  'sign-up': stats.signUps,
  'book-call': stats.bookCalls,
  'call-booked': stats.callsBooked,
  'report-opened': stats.reportsOpened,
};
const countOf = (kind: LeadKind) => sql<number>`sum(${KIND_COUNTS[kind]})`;

export interface PeopleFilter {
  q?: string;
  kind?: LeadKind | '';
  /** Exactly this person (lower-cased): the person page's header. */
  email?: string;
  /** A person without a lead_people row is 'new'. */
  stage?: LeadStage | '';
  /** An admin's id, or null for people nobody owns; undefined for anyone. */
  ownerId?: string | null | undefined;
  /** Only people whose follow-up day is this day key or earlier ("2026-12-01"). */
  dueBy?: string | undefined;
}

/** The person's working state, joined by their key; absent for a new lead nobody touched. */
const stageOf = sql<string>`coalesce(${leadPeople.stage}, 'new')`;

const lastAt = sql`max(${stats.lastAt})`;
const firstAt = sql`min(${stats.firstAt})`;
const eventCount = sql<number>`sum(${stats.total})`;

/** The aggregates a sort orders by (most recent / first seen / most events first; ties by email). */
const ORDER: Record<PeopleSort, SQL[]> = {
  recent: [sql`${lastAt} desc`, sql`${stats.email}`],
  first: [sql`${firstAt} desc`, sql`${stats.email}`],
  events: [sql`${eventCount} desc`, sql`${lastAt} desc`, sql`${stats.email}`],
  // Soonest (most overdue) first; people without a follow-up after them, latest activity first.
  'follow-up': [sql`${leadPeople.followUpOn} asc nulls last`, sql`${lastAt} desc`, sql`${stats.email}`],
  // The worst website first (the hottest prospect); people without a scored check after them.
  score: [sql`${leadProfiles.score} asc nulls last`, sql`${lastAt} desc`, sql`${stats.email}`],
};

/**
 * One page of people from their summary rows (decision 050: one per email and account, kept by triggers on
 * lead_events), the team's rows left out by the same rule as the events': each person's counts, first and
 * latest event, and how many people match in all (a window over the groups, taken before the page is cut).
 * Each person's name and first event are read after the page is cut, for its people only (`listPeople`).
 */
function peoplePage(ex: Reader, filter: PeopleFilter, sort: PeopleSort, page?: { limit: number; offset: number }) {
  const like = filter.q ? escapeLike(filter.q) : undefined;
  return ex.$with('people').as(
    ex
      .select({
        email: sql<string>`${stats.email}`.as('person_email'),
        firstMs: epochMs(firstAt).as('first_ms'),
        lastMs: epochMs(lastAt).as('last_ms'),
        total: eventCount.as('total'),
        audits: countOf('audit-request').as('audits'),
        chats: countOf('chat-lead').as('chats'),
        signUps: countOf('sign-up').as('sign_ups'),
        bookCalls: countOf('book-call').as('book_calls'),
        callsBooked: countOf('call-booked').as('calls_booked'),
        reportsOpened: countOf('report-opened').as('reports_opened'),
        stage: stageOf.as('stage'),
        ownerId: sql<string | null>`${leadPeople.ownerId}`.as('owner_id'),
        followUpOn: sql<string | null>`${leadPeople.followUpOn}::text`.as('follow_up_on'),
        businessName: sql<string | null>`${leadProfiles.businessName}`.as('business_name'),
        profilePhone: sql<string | null>`${leadProfiles.phone}`.as('profile_phone'),
        profileWebsite: sql<string | null>`${leadProfiles.website}`.as('profile_website'),
        score: sql<number | null>`${leadProfiles.score}`.as('score'),
        scoreRequestId: sql<string | null>`${leadProfiles.scoreRequestId}`.as('score_request_id'),
        requestId: sql<string | null>`${leadProfiles.requestId}`.as('request_id'),
        reportSentMs: sql<number | null>`${epochMs(sql`${leadProfiles.reportSentAt}`)}`.as('report_sent_ms'),
        reportOpenedMs: sql<number | null>`${epochMs(sql`${leadProfiles.reportOpenedAt}`)}`.as('report_opened_ms'),
        matches: sql<number>`count(*) over ()`.as('matches'),
        position: sql<number>`row_number() over (order by ${sql.join(ORDER[sort], sql`, `)})`.as('position'),
      })
      .from(stats)
      .leftJoin(leadPeople, eq(leadPeople.email, stats.email))
      .leftJoin(leadProfiles, eq(leadProfiles.email, stats.email))
      .where(
        and(
          statsNotByTeam,
          filter.email ? eq(stats.email, filter.email) : undefined,
          // The working state is the same on every row of a person: filtered before grouping.
          filter.stage ? sql`${stageOf} = ${filter.stage}` : undefined,
          filter.ownerId === undefined ? undefined : filter.ownerId === null ? isNull(leadPeople.ownerId) : eq(leadPeople.ownerId, filter.ownerId),
          filter.dueBy ? lte(leadPeople.followUpOn, filter.dueBy) : undefined,
        ),
      )
      .groupBy(stats.email, leadPeople.stage, leadPeople.ownerId, leadPeople.followUpOn, leadProfiles.email)
      .having(
        and(
          filter.kind ? sql`${countOf(filter.kind)} > 0` : undefined,
          // The key is the lower-cased email and ILIKE ignores case: the key answers for every spelling typed.
          like ? sql`(${stats.email} ilike ${like} or bool_or(${stats.names} ilike ${like}))` : undefined,
        ),
      )
      .orderBy(...ORDER[sort])
      .limit(page?.limit ?? Number.MAX_SAFE_INTEGER)
      .offset(page?.offset ?? 0),
  );
}

/** A lead event of the person `email` (a column of the page's people) that the lists count: not the team's. */
const ofPerson = (email: SQL.Aliased<string>) => and(sql`${personEmail} = ${email}`, ne(leadEvents.email, ''), notByTeam);

/**
 * One page of people with their latest non-empty name, their first event's source (ties by id) and their
 * member account, each read for the page's rows only: the person's events come newest or oldest first
 * from lead_events_person_at_idx, and better-auth stores users.email lower-cased, so users_email_idx finds
 * the account. `total` counts all matches.
 */
export async function listPeople(filter: PeopleFilter, sort: PeopleSort, limit: number, offset: number, ex: Reader = db()) {
  const people = peoplePage(ex, filter, sort, { limit, offset });
  const first = ex
    .select({
      kind: leadEvents.kind,
      sourcePage: leadEvents.sourcePage,
      referrer: leadEvents.referrer,
      utmSource: leadEvents.utmSource,
      utmMedium: leadEvents.utmMedium,
      utmCampaign: leadEvents.utmCampaign,
      utmTerm: leadEvents.utmTerm,
      utmContent: leadEvents.utmContent,
    })
    .from(leadEvents)
    .where(ofPerson(people.email))
    .orderBy(leadEvents.at, leadEvents.id)
    .limit(1)
    .as('first_event');
  const latestName = ex
    .select({ name: sql<string>`${leadEvents.name}`.as('latest_name') })
    .from(leadEvents)
    .where(and(ofPerson(people.email), ne(leadEvents.name, '')))
    .orderBy(desc(leadEvents.at), desc(leadEvents.id))
    .limit(1)
    .as('latest_name');
  const rows = await ex
    .with(people)
    .select({
      email: people.email,
      name: sql<string>`coalesce(${latestName.name}, '')`,
      firstMs: people.firstMs,
      lastMs: people.lastMs,
      total: people.total,
      audits: people.audits,
      chats: people.chats,
      signUps: people.signUps,
      bookCalls: people.bookCalls,
      callsBooked: people.callsBooked,
      reportsOpened: people.reportsOpened,
      stage: people.stage,
      ownerId: people.ownerId,
      ownerName: sql<string | null>`coalesce(nullif(${owners.name}, ''), ${owners.email})`,
      followUpOn: people.followUpOn,
      matches: people.matches,
      firstKind: first.kind,
      sourcePage: first.sourcePage,
      referrer: first.referrer,
      utmSource: first.utmSource,
      utmMedium: first.utmMedium,
      utmCampaign: first.utmCampaign,
      utmTerm: first.utmTerm,
      utmContent: first.utmContent,
      memberId: users.id,
      memberPhone: users.phone,
      memberWebsite: users.website,
      businessName: people.businessName,
      profilePhone: people.profilePhone,
      profileWebsite: people.profileWebsite,
      score: people.score,
      scoreRequestId: people.scoreRequestId,
      requestId: people.requestId,
      reportSentMs: people.reportSentMs,
      reportOpenedMs: people.reportOpenedMs,
    })
    .from(people)
    .innerJoinLateral(first, sql`true`)
    .leftJoinLateral(latestName, sql`true`)
    .leftJoin(users, eq(users.email, people.email))
    .leftJoin(owners, eq(owners.id, people.ownerId))
    .orderBy(people.position);
  // Past the last page the window count is not there: count the matches on their own.
  const total = rows.length > 0 ? n(rows[0]!.matches) : offset > 0 ? await countPeople(filter, ex) : 0;
  return {
    total,
    rows: rows.map((r) => ({
      email: r.email,
      name: r.name,
      firstAt: dateOf(r.firstMs),
      lastAt: dateOf(r.lastMs),
      total: n(r.total),
      counts: { 'audit-request': n(r.audits), 'chat-lead': n(r.chats), 'sign-up': n(r.signUps), 'book-call': n(r.bookCalls), 'call-booked': n(r.callsBooked), 'report-opened': n(r.reportsOpened) } satisfies Record<LeadKind, number>,
      firstKind: r.firstKind,
      firstSource: { sourcePage: r.sourcePage, referrer: r.referrer, utmSource: r.utmSource, utmMedium: r.utmMedium, utmCampaign: r.utmCampaign, utmTerm: r.utmTerm, utmContent: r.utmContent },
      memberId: r.memberId,
      work: { stage: r.stage, ownerId: r.ownerId, ownerName: r.ownerName, followUpOn: r.followUpOn },
      // What they gave on their newest request, else on their member account.
      profile: {
        businessName: r.businessName ?? '',
        phone: r.profilePhone || r.memberPhone || '',
        website: r.profileWebsite || r.memberWebsite || '',
        score: r.score === null ? null : n(r.score),
        scoreRequestId: r.scoreRequestId,
        requestId: r.requestId,
        reportSentAt: r.reportSentMs === null ? null : dateOf(r.reportSentMs),
        reportOpenedAt: r.reportOpenedMs === null ? null : dateOf(r.reportOpenedMs),
      },
    })),
  };
}

export type PersonRow = Awaited<ReturnType<typeof listPeople>>['rows'][number];

async function countPeople(filter: PeopleFilter, ex: Reader) {
  const people = peoplePage(ex, filter, 'recent');
  const [row] = await ex.with(people).select({ n: sql<number>`count(*)` }).from(people);
  return n(row?.n);
}

/** Book-a-call clicks no person can be joined to (visitors without an account): counted, never listed. */
export async function countAnonymousBookCalls(ex: Reader = db()) {
  const [row] = await ex
    .select({ n: sql<number>`count(*)` })
    .from(leadEvents)
    .where(and(eq(leadEvents.kind, 'book-call'), eq(leadEvents.email, '')));
  return n(row?.n);
}

// ---------------------------------------------------------------------------------------------------------
// A person's records, for the timeline. `before` is exclusive; every read returns at most `limit` rows.

export interface Window {
  before: Date | undefined;
  limit: number;
}

const beforeOf = (column: Parameters<typeof lt>[0], w: Window) => (w.before ? lt(column, w.before) : undefined);

export async function findMemberByEmail(email: string, ex: Reader = db()) {
  const [row] = await ex
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  return row;
}

/** The person's audit requests (by the request's email or the lead events that name one). */
export async function auditRequestsOf(email: string, ex: Reader = db()) {
  return ex
    .select({ id: auditRequests.id, businessName: auditRequests.businessName, ...requestReportColumns })
    .from(auditRequests)
    .where(
      sql`lower(${auditRequests.email}) = ${email} or ${auditRequests.id} in (select ${leadEvents.refId} from ${leadEvents} where ${leadEvents.kind} = 'audit-request' and ${personEmail} = ${email})`,
    )
    .orderBy(desc(auditRequests.createdAt), desc(auditRequests.id));
}

/** The person's chat conversations: those they left this email in, and their member account's. */
export async function conversationsOf(email: string, memberId: string | undefined, ex: Reader = db()) {
  const byEmail = sql`lower(${chatConversations.contactEmail}) = ${email}`;
  return ex
    .select({ id: chatConversations.id, createdAt: chatConversations.createdAt, contactName: chatConversations.contactName })
    .from(chatConversations)
    .where(memberId ? sql`${byEmail} or ${chatConversations.userId} = ${memberId}` : byEmail);
}

export async function leadEventsOf(email: string, w: Window, ex: Reader = db()) {
  return ex
    .select()
    .from(leadEvents)
    .where(and(sql`${personEmail} = ${email}`, beforeOf(leadEvents.at, w)))
    .orderBy(desc(leadEvents.at), desc(leadEvents.id))
    .limit(w.limit);
}

/** Status changes and assignments of the requests, as the audit module recorded them. */
export async function auditChangesOf(requestIds: string[], w: Window, ex: Reader = db()) {
  if (requestIds.length === 0) return [];
  return ex
    .select({ id: activityLog.id, at: activityLog.at, requestId: activityLog.entityId, action: activityLog.action, actorName: actorNameOf, before: activityLog.before, after: activityLog.after })
    .from(activityLog)
    .where(and(eq(activityLog.entityType, AUDIT_ENTITY), inArray(activityLog.entityId, requestIds), inArray(activityLog.action, ['status', 'assign', 'report-sent']), beforeOf(activityLog.at, w)))
    .orderBy(desc(activityLog.at), desc(activityLog.id))
    .limit(w.limit);
}

export async function auditNotesOf(requestIds: string[], w: Window, ex: Reader = db()) {
  if (requestIds.length === 0) return [];
  return ex
    .select({ id: auditNotes.id, at: auditNotes.createdAt, requestId: auditNotes.requestId, authorName: auditNotes.authorName, body: auditNotes.body })
    .from(auditNotes)
    .where(and(inArray(auditNotes.requestId, requestIds), beforeOf(auditNotes.createdAt, w)))
    .orderBy(desc(auditNotes.createdAt), desc(auditNotes.id))
    .limit(w.limit);
}

export async function chatMessagesOf(conversationIds: string[], w: Window, ex: Reader = db()) {
  if (conversationIds.length === 0) return [];
  return ex
    .select({ seq: chatMessages.seq, at: chatMessages.createdAt, conversationId: chatMessages.conversationId, author: chatMessages.author, body: chatMessages.body })
    .from(chatMessages)
    .where(and(inArray(chatMessages.conversationId, conversationIds), beforeOf(chatMessages.createdAt, w)))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.seq))
    .limit(w.limit);
}

/** Mail queued for this address or one merged into it (sent or still waiting), by when it was queued. */
export async function mailsTo(email: string, w: Window, ex: Reader = db()) {
  return ex
    .select({ id: mailQueue.id, at: mailQueue.createdAt, kind: mailQueue.kind, subject: mailQueue.subject, sentAt: mailQueue.sentAt, attempts: mailQueue.attempts, lastError: mailQueue.lastError })
    .from(mailQueue)
    .where(and(sql`lower(${mailQueue.to}) in (select ${email} union all select ${leadAliases.alias} from ${leadAliases} where ${leadAliases.email} = ${email})`, beforeOf(mailQueue.createdAt, w)))
    .orderBy(desc(mailQueue.createdAt), desc(mailQueue.id))
    .limit(w.limit);
}

/** A member's page-time saves, newest first: one range scan of page_times_user_at_idx. */
export async function pageTimesOf(userId: string, w: Window, ex: Reader = db()) {
  return ex
    .select({ id: pageTimes.id, at: pageTimes.at, pagePath: pageTimes.pagePath, durationMs: pageTimes.durationMs, sessionId: pageTimes.sessionId })
    .from(pageTimes)
    .where(and(eq(pageTimes.userId, userId), beforeOf(pageTimes.at, w)))
    .orderBy(desc(pageTimes.at), desc(pageTimes.id))
    .limit(w.limit);
}

/** The newest name the person gave (any lead event), or ''. One probe of lead_events_person_at_idx. */
export async function findLatestName(email: string, ex: Reader = db()): Promise<string> {
  const [row] = await ex
    .select({ name: leadEvents.name })
    .from(leadEvents)
    .where(and(sql`${personEmail} = ${email}`, ne(leadEvents.name, '')))
    .orderBy(desc(leadEvents.at), desc(leadEvents.id))
    .limit(1);
  return row?.name ?? '';
}
