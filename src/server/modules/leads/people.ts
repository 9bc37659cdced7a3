/**
 * Leads by person (PRODUCT.md "Leads in one place"): one row per email across audit requests, chat leads,
 * sign-ups and book-a-call clicks, and one person's whole timeline. Read-only: every write stays with the
 * module that owns the record (audit, chat, mail, page time).
 *
 * A book-a-call click joins a person only when a member made it (their email is on the event); a visitor's
 * click has no email and is counted, not listed (`anonymousBookCalls`).
 */
import { db } from '../../db';
import { requireAdmin } from '../users/service';
import { toCsv } from '../../../shared/csv';
import { CALL_BOOKED_KIND, isLeadKind, LEAD_KIND_LABELS, LEAD_KINDS, type LeadKind } from '../../../shared/lead-events';
import { withoutBidiControls } from '../../../shared/text-controls';
import { firstSourceLabel, LEAD_KIND_ONE, mergeTimeline, normalizeEmail, PEOPLE_PER_PAGE, personKeyOf, type MergedPage, type PeopleQuery } from '../../../shared/lead-people';
import * as repo from './people-repository';
import { aliasesOf } from './aliases';
import * as workRepo from './work-repository';
import * as bookingsRepo from '../bookings/repository';
import { siteToday } from './work';
import { LEAD_STAGES, leadStageLabel, type LeadStage } from '../../../shared/schemas/lead-work';
import { BOARD_CARDS_PER_PAGE, type BoardColumn } from '../../../shared/lead-board';
import { REPORT_STATE_LABELS, reportStateOf } from '../../../shared/lead-profile';

export type { PersonRow } from './people-repository';

/** A person's name as shown: a visitor typed it, so without bidi controls (the page isolates it too). */
const shown = <T extends { name: string }>(row: T): T => ({ ...row, name: withoutBidiControls(row.name) });

/** Who is looking (for "mine") and their today (for "follow-up due"). */
export interface PeopleViewer {
  actorId: string | undefined;
  /** Today's day key in the site's time zone. */
  today: string;
}

/** The list's filters in the repository's terms. */
function filterOf(query: Pick<PeopleQuery, 'q' | 'kind' | 'stage' | 'owner' | 'due'>, viewer: PeopleViewer): repo.PeopleFilter {
  const ownerId = query.owner === '' ? undefined : query.owner === 'none' ? null : query.owner === 'me' ? (viewer.actorId ?? '') : query.owner;
  return { q: query.q, kind: query.kind, stage: query.stage, ownerId, dueBy: query.due ? viewer.today : undefined };
}

/**
 * The pipeline board (issue 39): each stage's first page of people, latest activity first, under the list's
 * filters, and how many match in each column. Columns are read one after another (PGlite serves one query at
 * a time; on PostgreSQL each is one indexed page like the list's).
 */
export async function boardColumns(query: Pick<PeopleQuery, 'q' | 'kind' | 'owner' | 'due'>, viewer: PeopleViewer): Promise<BoardColumn[]> {
  const columns: BoardColumn[] = [];
  for (const stage of LEAD_STAGES) columns.push(await boardColumnPage(query, viewer, stage, 0));
  return columns;
}

/** A column's "Show more" from the island (admin only; checked here, not only by the route guard). */
export async function moreBoardCards(actorId: string | undefined, query: Pick<PeopleQuery, 'q' | 'kind' | 'owner' | 'due'>, stage: LeadStage, offset: number): Promise<BoardColumn> {
  await requireAdmin(actorId, db());
  return boardColumnPage(query, { actorId, today: await siteToday() }, stage, offset);
}

/** One column's cards from `offset` on. */
export async function boardColumnPage(query: Pick<PeopleQuery, 'q' | 'kind' | 'owner' | 'due'>, viewer: PeopleViewer, stage: LeadStage, offset: number): Promise<BoardColumn> {
  const { rows, total } = await repo.listPeople(filterOf({ ...query, stage }, viewer), 'recent', BOARD_CARDS_PER_PAGE, offset);
  return {
    stage,
    total,
    cards: rows.map(shown).map((r) => ({
      email: r.email,
      key: personKeyOf(r.email),
      name: r.name,
      businessName: withoutBidiControls(r.profile.businessName),
      score: r.profile.score,
      ownerName: r.work.ownerName,
      followUpOn: r.work.followUpOn,
      lastAt: r.lastAt.toISOString(),
    })),
  };
}

export async function listPeople(query: PeopleQuery, viewer: PeopleViewer) {
  const { rows, total } = await repo.listPeople(filterOf(query, viewer), query.sort, PEOPLE_PER_PAGE, (query.page - 1) * PEOPLE_PER_PAGE);
  return { rows: rows.map(shown), total, pages: Math.max(1, Math.ceil(total / PEOPLE_PER_PAGE)) };
}

export const anonymousBookCalls = () => repo.countAnonymousBookCalls();

export const PEOPLE_EXPORT_MAX_ROWS = 10_000;

/** The CSV export of the list as filtered and sorted (admin only; checked here, not only by the route guard). */
export async function exportPeopleCsv(actorId: string | undefined, query: Pick<PeopleQuery, 'q' | 'kind' | 'stage' | 'owner' | 'due' | 'sort'>): Promise<string> {
  await requireAdmin(actorId, db());
  const { rows } = await repo.listPeople(filterOf(query, { actorId, today: await siteToday() }), query.sort, PEOPLE_EXPORT_MAX_ROWS, 0);
  return toCsv([
    ['Email', 'Name', 'Member', 'Stage', 'Owner', 'Follow up on', 'Business', 'Phone', 'Website', 'Website score', 'Report', 'First seen (UTC)', 'Latest activity (UTC)', ...LEAD_KINDS.map((k) => LEAD_KIND_LABELS[k]), 'First lead', 'First source', 'Source page', 'Referrer', 'UTM source', 'UTM medium', 'UTM campaign', 'UTM term', 'UTM content'],
    ...rows.map((r) => {
      const s = r.firstSource;
      return [
        r.email,
        r.name,
        r.memberId ? 'yes' : 'no',
        leadStageLabel(r.work.stage),
        r.work.ownerName ?? '',
        r.work.followUpOn ?? '',
        r.profile.businessName,
        r.profile.phone,
        r.profile.website,
        r.profile.score ?? '',
        r.profile.requestId ? REPORT_STATE_LABELS[reportStateOf(r.profile.reportSentAt, r.profile.reportOpenedAt)] : '',
        r.firstAt,
        r.lastAt,
        ...LEAD_KINDS.map((k) => r.counts[k]),
        isLeadKind(r.firstKind) ? LEAD_KIND_ONE[r.firstKind] : r.firstKind,
        firstSourceLabel(s),
        s.sourcePage,
        s.referrer,
        s.utmSource,
        s.utmMedium,
        s.utmCampaign,
        s.utmTerm,
        s.utmContent,
      ];
    }),
  ]);
}

/** The person's header (aggregates, first source, member account), or undefined when no lead has this email. */
export async function findPerson(email: string) {
  const key = normalizeEmail(email);
  const { rows } = await repo.listPeople({ email: key }, 'recent', 1, 0);
  const person = rows[0];
  if (!person) return undefined;
  const member = person.memberId ? await repo.findMemberByEmail(key) : undefined;
  return { ...shown(person), member };
}

/** The addresses merged into the person (issue 39). */
export const personAliases = (email: string) => aliasesOf(normalizeEmail(email), db());

/** The person's next call booked on the scheduler (from now on), if any. */
export const nextCallOf = (email: string, now = new Date()) => bookingsRepo.nextBookingOf(normalizeEmail(email), now);

// ---------------------------------------------------------------------------------------------------------
// The timeline, newest first.

interface Base {
  /** Unique within the timeline; orders entries of one millisecond (larger first). */
  id: string;
  at: Date;
}

export type TimelineEntry = Base &
  (
    | {
        type: 'lead';
        kind: LeadKind | string;
        name: string;
        /** The audit request / conversation the event is about (its page links there). */
        auditRequest?: { id: string; businessName: string; reportSentAt: Date | null; reportOpenedAt: Date | null };
        conversationId?: string;
        /** A book-a-call click: the page the link was on. */
        page?: string;
        /** A call booked: the booking as it is now (its changes are entries of their own). */
        booking?: { provider: string; startsAt: Date | null; status: string };
        sourcePage: string;
        referrer: string;
        utm: { source: string; medium: string; campaign: string; term: string; content: string };
      }
    | { type: 'audit-status'; requestId: string; businessName: string; from: string; to: string; actorName: string }
    | { type: 'audit-assign'; requestId: string; businessName: string; to: string | null; actorName: string }
    | { type: 'audit-report-sent'; requestId: string; businessName: string; sentTo: string; actorName: string }
    | { type: 'audit-note'; requestId: string; businessName: string; authorName: string; body: string }
    | { type: 'lead-stage'; from: string; to: string; actorName: string }
    | { type: 'lead-owner'; to: string | null; actorName: string }
    | { type: 'lead-follow-up'; to: string | null; actorName: string }
    | { type: 'lead-replied'; replied: boolean; actorName: string }
    /** The person unsubscribed from the follow-up emails: 'one-click' (their mail app) or 'page'. */
    | { type: 'lead-unsubscribed'; via: string }
    /** An admin enrolled the person in a follow-up sequence by hand (the trigger's key). */
    | { type: 'lead-enrolled'; trigger: string; actorName: string }
    | { type: 'lead-note'; authorName: string; body: string }
    | { type: 'booking-change'; action: string; startsAt: Date | null; provider: string }
    | { type: 'chat-started'; conversationId: string }
    | { type: 'chat-message'; conversationId: string; author: string; body: string }
    | { type: 'mail'; kind: string; subject: string; sentAt: Date | null; attempts: number; failed: boolean }
    | { type: 'page-time'; pagePath: string; durationMs: number; sessionId: string }
  );

/** Rows read per source and page: a few hundred rows at most, whatever the person's history. */
export const TIMELINE_LIMIT = 100;

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const field = (json: unknown, key: string) => (json && typeof json === 'object' && !Array.isArray(json) ? str((json as Record<string, unknown>)[key]) : '');

/** A stage, owner, follow-up or "replied" change of the person, an enrolment by hand, or their unsubscribe, as the activity log holds it. */
function leadChangeEntry(c: Awaited<ReturnType<typeof workRepo.leadChangesOf>>[number]): TimelineEntry {
  const base = { id: `lead-change:${c.id}`, at: c.at, actorName: c.actorName };
  if (c.action === 'stage') return { ...base, type: 'lead-stage', from: field(c.before, 'stage'), to: field(c.after, 'stage') };
  if (c.action === 'owner') return { ...base, type: 'lead-owner', to: field(c.after, 'owner') || null };
  if (c.action === 'replied') return { ...base, type: 'lead-replied', replied: field(c.after, 'replied') === 'true' };
  // The person did it (the log's actor is their own address): no "by" to show.
  if (c.action === 'unsubscribed') return { id: base.id, at: base.at, type: 'lead-unsubscribed', via: field(c.after, 'via') };
  if (c.action === 'sequence-enrolled') return { ...base, type: 'lead-enrolled', trigger: field(c.after, 'trigger') };
  return { ...base, type: 'lead-follow-up', to: field(c.after, 'followUpOn') || null };
}

/** Every source's next `limit + 1` rows before the cursor, merged (see mergeTimeline). */
export async function personTimeline(email: string, options: { before?: Date; limit?: number } = {}): Promise<MergedPage<TimelineEntry>> {
  const key = normalizeEmail(email);
  const limit = options.limit ?? TIMELINE_LIMIT;
  const w: repo.Window = { before: options.before, limit: limit + 1 };
  const [member, requests] = await Promise.all([repo.findMemberByEmail(key), repo.auditRequestsOf(key)]);
  const conversations = await repo.conversationsOf(key, member?.id);
  const requestIds = requests.map((r) => r.id);
  const requestById = new Map(requests.map((r) => [r.id, r]));
  const businessOf = (id: string) => requestById.get(id)?.businessName ?? '';
  const conversationIds = new Set(conversations.map((c) => c.id));

  const [events, changes, notes, leadChanges, leadNotes, bookingChanges, messages, mails, pageTimes] = await Promise.all([
    repo.leadEventsOf(key, w),
    repo.auditChangesOf(requestIds, w),
    repo.auditNotesOf(requestIds, w),
    workRepo.leadChangesOf(key, w),
    workRepo.leadNotesOf(key, w),
    bookingsRepo.bookingChangesOf(key, w),
    repo.chatMessagesOf([...conversationIds], w),
    repo.mailsTo(key, w),
    member ? repo.pageTimesOf(member.id, w) : Promise.resolve([]),
  ]);
  const bookingById = new Map((await bookingsRepo.bookingsByIds(events.filter((e) => e.kind === CALL_BOOKED_KIND && e.refId).map((e) => e.refId!))).map((b) => [b.id, b]));
  const started = conversations
    .filter((c) => !options.before || c.createdAt < options.before)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .slice(0, w.limit);

  const page = <T>(rows: T[]) => ({ rows, truncated: rows.length > limit });
  const sources: { rows: TimelineEntry[]; truncated: boolean }[] = [
    page(
      events.map((e): TimelineEntry => {
        // An opened report's event names the request it was made for, like the request's own event.
        const request = (e.kind === 'audit-request' || e.kind === 'report-opened') && e.refId ? requestById.get(e.refId) : undefined;
        return {
          id: `lead:${e.id}`,
          at: e.at,
          type: 'lead',
          kind: e.kind,
          name: withoutBidiControls(e.name),
          auditRequest: request,
          conversationId: e.kind === 'chat-lead' && e.refId && conversationIds.has(e.refId) ? e.refId : undefined,
          page: e.kind === 'book-call' ? (e.refId ?? undefined) : undefined,
          booking: e.kind === CALL_BOOKED_KIND && e.refId ? bookingById.get(e.refId) : undefined,
          sourcePage: e.sourcePage,
          referrer: e.referrer,
          utm: { source: e.utmSource, medium: e.utmMedium, campaign: e.utmCampaign, term: e.utmTerm, content: e.utmContent },
        };
      }),
    ),
    page(
      changes.map((c): TimelineEntry =>
        // A report sent; and, recorded before issue 35 gave a request no status of its own, its status changes and assignments.
        c.action === 'report-sent'
          ? { id: `change:${c.id}`, at: c.at, type: 'audit-report-sent', requestId: c.requestId, businessName: businessOf(c.requestId), sentTo: field(c.after, 'sentTo'), actorName: c.actorName }
          : c.action === 'status'
            ? { id: `change:${c.id}`, at: c.at, type: 'audit-status', requestId: c.requestId, businessName: businessOf(c.requestId), from: field(c.before, 'status'), to: field(c.after, 'status'), actorName: c.actorName }
            : { id: `change:${c.id}`, at: c.at, type: 'audit-assign', requestId: c.requestId, businessName: businessOf(c.requestId), to: field(c.after, 'assignedTo') || null, actorName: c.actorName },
      ),
    ),
    page(notes.map((n): TimelineEntry => ({ id: `note:${n.id}`, at: n.at, type: 'audit-note', requestId: n.requestId, businessName: businessOf(n.requestId), authorName: n.authorName, body: n.body }))),
    page(leadChanges.map((c) => leadChangeEntry(c))),
    page(leadNotes.map((n): TimelineEntry => ({ id: `lead-note:${n.id}`, at: n.at, type: 'lead-note', authorName: n.authorName, body: n.body }))),
    page(bookingChanges.map((b): TimelineEntry => ({ id: `booking:${b.id}`, at: b.at, type: 'booking-change', action: b.action, startsAt: b.startsAt, provider: b.provider }))),
    // A message and the conversation's start share a millisecond: "chat:0" sorts the start below it.
    page(started.map((c): TimelineEntry => ({ id: `chat:0:${c.id}`, at: c.createdAt, type: 'chat-started', conversationId: c.id }))),
    page(messages.map((m): TimelineEntry => ({ id: `chat:1:${String(m.seq).padStart(16, '0')}`, at: m.at, type: 'chat-message', conversationId: m.conversationId, author: m.author, body: withoutBidiControls(m.body) }))),
    page(mails.map((m): TimelineEntry => ({ id: `mail:${m.id}`, at: m.at, type: 'mail', kind: m.kind, subject: m.subject, sentAt: m.sentAt, attempts: m.attempts, failed: !m.sentAt && Boolean(m.lastError) }))),
    page(pageTimes.map((p): TimelineEntry => ({ id: `page:${p.id}`, at: p.at, type: 'page-time', pagePath: p.pagePath, durationMs: p.durationMs, sessionId: p.sessionId }))),
  ];
  // Each source returned up to limit + 1 rows: the extra row only signals that more exist.
  return mergeTimeline(
    sources.map((s) => ({ rows: s.truncated ? s.rows.slice(0, limit) : s.rows, truncated: s.truncated })),
    limit,
    (a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}
