/**
 * Leads by person (src/server/modules/leads/people.ts): one row per email whatever its case, the first
 * source is the earliest event's, counts per kind, search, kind filter, sorts and pages made in SQL; a
 * person's timeline holds every kind of record (lead events, audit status changes and notes, chat,
 * mail, a member's page time) newest first, and "show older" pages through it without gaps or repeats.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, chatConversations, chatMessages, leadEvents, mailQueue, pageTimes, users } from '../../src/server/db/schema';
import { addAuditNote, submitAuditRequest } from '../../src/server/modules/audit/service';
import { anonymousBookCalls, exportPeopleCsv, findPerson, listPeople, personTimeline, type TimelineEntry } from '../../src/server/modules/leads/people';
import { peopleQueryOf } from '../../src/shared/lead-people';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
});
afterEach(() => h.close());

const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);
const minutes = (m: number) => new Date(T0 + m * 60_000);
let seq = 0;

async function event(over: Partial<typeof leadEvents.$inferInsert> & { kind: string; email: string }) {
  seq += 1;
  await h.handle.db.insert(leadEvents).values({ id: `ev-${seq}-${crypto.randomUUID()}`, at: minutes(seq), ...over });
}

const query = (params: Record<string, string> = {}) => listPeople(peopleQueryOf(new URLSearchParams(params)), { actorId: undefined, today: '2026-11-26' });

describe('listPeople', () => {
  beforeEach(async () => {
    seq = 0;
    await event({ kind: 'book-call', email: 'Ann@Example.com', name: 'Ann', at: minutes(1), referrer: 'https://www.Search.example/q?x', sourcePage: '/services' });
    await event({ kind: 'audit-request', email: 'ann@example.com', name: 'Ann Smith', at: minutes(5), utmSource: 'late', utmCampaign: 'late' });
    await event({ kind: 'chat-lead', email: 'ANN@EXAMPLE.COM', name: '', at: minutes(9) });
    await event({ kind: 'audit-request', email: 'bob@example.com', name: 'Bob <b>Builder</b>', at: minutes(3), utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' });
    await event({ kind: 'book-call', email: '', name: '', at: minutes(4) });
    await event({ kind: 'book-call', email: '', name: '', at: minutes(6) });
  });

  it('is one row per email whatever its case, with the latest name, the first event’s source and counts per kind', async () => {
    const { rows, total } = await query();
    // The accounts the harness may make have sign-up events too: only these two people exist here.
    expect(total).toBe(2);
    expect(rows.map((r) => r.email)).toEqual(['ann@example.com', 'bob@example.com']); // latest activity first
    const ann = rows[0]!;
    expect(ann.name).toBe('Ann Smith'); // the newest non-empty name
    expect(ann.total).toBe(3);
    expect(ann.counts).toEqual({ 'audit-request': 1, 'chat-lead': 1, 'sign-up': 0, 'book-call': 1, 'call-booked': 0, 'report-opened': 0 });
    expect(ann.firstKind).toBe('book-call');
    expect(ann.firstSource).toMatchObject({ referrer: 'https://www.Search.example/q?x', sourcePage: '/services', utmSource: '' });
    expect(ann.firstAt.toISOString()).toBe(minutes(1).toISOString());
    expect(ann.lastAt.toISOString()).toBe(minutes(9).toISOString());
    expect(rows[1]!.firstSource).toMatchObject({ utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' });
    expect(rows[1]!.name).toBe('Bob <b>Builder</b>');
  });

  it('shows names and chat text without bidi controls, which would spoof what follows them (stored as typed)', async () => {
    const RLO = '\u202e';
    await event({ kind: 'chat-lead', email: 'spoof@example.com', name: `Eve ${RLO}nimda`, at: minutes(20) });
    const conversationId = crypto.randomUUID();
    await h.handle.db.insert(chatConversations).values({ id: conversationId, contactEmail: 'spoof@example.com', contactName: `Eve ${RLO}nimda` });
    await h.handle.db.insert(chatMessages).values({ conversationId, author: 'visitor', body: `pay to ${RLO}gnp.exe`, createdAt: minutes(21) });
    const listed = (await query({ q: 'spoof' })).rows[0]!;
    expect(listed.name).toBe('Eve nimda');
    expect((await findPerson('spoof@example.com'))!.name).toBe('Eve nimda');
    const timeline = (await personTimeline('spoof@example.com')).entries;
    const texts = timeline.map((e) => ('body' in e ? e.body : 'name' in e ? e.name : ''));
    expect(texts).toEqual(expect.arrayContaining(['pay to gnp.exe', 'Eve nimda']));
    expect(JSON.stringify(timeline)).not.toContain(RLO);
  });

  it('leaves visitors’ book-a-call clicks (no email) out of the people and counts them apart', async () => {
    const { rows } = await query();
    expect(rows.some((r) => r.email === '')).toBe(false);
    expect(await anonymousBookCalls()).toBe(2);
  });

  it('searches name and email (LIKE characters are literal), filters by kind and sorts', async () => {
    expect((await query({ q: 'BUILDER' })).rows.map((r) => r.email)).toEqual(['bob@example.com']);
    expect((await query({ q: 'ann@' })).rows.map((r) => r.email)).toEqual(['ann@example.com']);
    expect((await query({ q: '%' })).total).toBe(0);
    expect((await query({ kind: 'chat-lead' })).rows.map((r) => r.email)).toEqual(['ann@example.com']);
    expect((await query({ kind: 'sign-up' })).total).toBe(0);
    // A person with a matching event keeps all their counts.
    expect((await query({ kind: 'chat-lead' })).rows[0]!.total).toBe(3);
    expect((await query({ sort: 'first' })).rows.map((r) => r.email)).toEqual(['bob@example.com', 'ann@example.com']);
    expect((await query({ sort: 'events' })).rows.map((r) => r.email)).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it('pages in SQL: 50 a page, the total stays right past the last page', async () => {
    for (let i = 0; i < 53; i += 1) await event({ kind: 'sign-up', email: `p${String(i).padStart(2, '0')}@example.com`, at: minutes(100 + i) });
    const first = await query();
    expect(first.total).toBe(55);
    expect(first.pages).toBe(2);
    expect(first.rows).toHaveLength(50);
    const second = await query({ page: '2' });
    expect(second.rows.map((r) => r.email)).toEqual(['p02@example.com', 'p01@example.com', 'p00@example.com', 'ann@example.com', 'bob@example.com']);
    expect(new Set([...first.rows, ...second.rows].map((r) => r.email)).size).toBe(53 + 2);
    const past = await query({ page: '9' });
    expect(past.rows).toEqual([]);
    expect(past.total).toBe(55);
  });

  it('exports the filtered list as CSV for an admin only, formula-like values neutralised', async () => {
    await event({ kind: 'chat-lead', email: 'eve@example.com', name: '=HYPERLINK("http://evil.example")', utmSource: '+cmd' });
    const { userId: adminId } = await h.signUpVerified({ email: 'owner@example.com' });
    await h.handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, adminId));
    const { userId: memberId } = await h.signUpVerified({ email: 'plain@example.com' });
    await h.handle.db.update(users).set({ role: 'user' }).where(eq(users.id, memberId));
    await expect(exportPeopleCsv(memberId, peopleQueryOf(new URLSearchParams()))).rejects.toThrow();
    await expect(exportPeopleCsv(undefined, peopleQueryOf(new URLSearchParams()))).rejects.toThrow();
    const csv = await exportPeopleCsv(adminId, peopleQueryOf(new URLSearchParams('kind=chat-lead')));
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^Email,Name,Member,Stage,Owner,Follow up on,Business,Phone,Website,Website score,Report,First seen \(UTC\),/);
    expect(lines).toHaveLength(3); // eve and ann
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csv).toContain("'+cmd");
    expect(csv).not.toContain('bob@example.com');
  });

  it('links a person to their member account by email', async () => {
    await h.signUpVerified({ email: 'owner@example.com' }); // the first verified account is the owner (admin), no lead
    await h.signUpVerified({ email: 'Member@Example.com' });
    const { rows } = await query({ q: 'member@example.com' });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.counts['sign-up']).toBe(1);
    const user = await h.userByEmail('member@example.com');
    expect(rows[0]!.memberId).toBe(user!.id);
    expect((await query({ q: 'bob@' })).rows[0]!.memberId).toBeNull();
  });
});

describe('personTimeline', () => {
  it('holds every kind of record, newest first: events, audit status change and note, chat, mail, page time', async () => {
    const { userId: adminId } = await h.signUpVerified({ email: 'owner@example.com' });
    await h.handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, adminId));
    const { userId: memberId } = await h.signUpVerified({ email: 'mia@example.com', firstName: 'Mia', lastName: 'Member' });

    // A member reads two pages (one of them in two saves), then asks for an audit.
    const now = Date.now();
    const ago = (s: number) => new Date(now - s * 1000);
    await h.handle.db.insert(pageTimes).values([
      { id: crypto.randomUUID(), userId: memberId, pagePath: '/services', durationMs: 30_000, at: ago(120), sessionId: 'tab-1' },
      { id: crypto.randomUUID(), userId: memberId, pagePath: '/services', durationMs: 12_000, at: ago(90), sessionId: 'tab-1' },
      { id: crypto.randomUUID(), userId: memberId, pagePath: '/free-audit', durationMs: 20_000, at: ago(78), sessionId: 'tab-1' },
    ]);
    const submitted = await submitAuditRequest(
      { ...auditSubmissionOf({ fullName: 'Mia Member', email: 'MIA@example.com', businessName: 'Mia Clinic', businessType: 'clinic', goals: ['more-leads'], consent: true }), attribution: { utmSource: 'newsletter' } },
      { clientIp: randomIp(), userId: memberId },
    );
    const requestId = (submitted as { id: string }).id;
    await new Promise((r) => setTimeout(r, 5));
    // A status change as the activity log recorded them before issue 35 (a request had a status of its own): still shown.
    await h.handle.db.insert(activityLog).values({ id: crypto.randomUUID(), actorId: adminId, actorEmail: 'owner@example.com', action: 'status', entityType: 'audit', entityId: requestId, summary: 'Mia Member (Mia Clinic): New → In progress', before: { status: 'new' }, after: { status: 'in-progress' } });
    await new Promise((r) => setTimeout(r, 5));
    await addAuditNote(adminId, requestId, 'Called her <script>x</script>');
    await h.handle.db.update(mailQueue).set({ sentAt: new Date() }).where(eq(mailQueue.kind, 'audit-confirmation'));
    // A chat she left her email in.
    const conversationId = crypto.randomUUID();
    await h.handle.db.insert(chatConversations).values({ id: conversationId, contactEmail: 'mia@example.com', contactName: 'Mia', createdAt: new Date(Date.now() + 10) });
    await h.handle.db.insert(chatMessages).values([
      { conversationId, author: 'visitor', body: 'Hello <b>there</b>', createdAt: new Date(Date.now() + 20) },
      { conversationId, author: 'assistant', body: 'Hi! How can I help?', createdAt: new Date(Date.now() + 30) },
    ]);

    const { entries, before } = await personTimeline('Mia@Example.com');
    expect(before).toBeUndefined();
    const times = entries.map((e) => e.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const types = entries.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['lead', 'audit-status', 'audit-note', 'chat-started', 'chat-message', 'mail', 'page-time']),
    );
    const of = <T extends TimelineEntry['type']>(type: T) => entries.filter((e): e is Extract<TimelineEntry, { type: T }> => e.type === type);
    expect(of('lead').map((e) => e.kind).sort()).toEqual(['audit-request', 'sign-up']);
    expect(of('lead').find((e) => e.kind === 'audit-request')!.auditRequest).toEqual({ id: requestId, businessName: 'Mia Clinic', reportSentAt: null, reportOpenedAt: null });
    expect(of('audit-status')[0]).toMatchObject({ requestId, from: 'new', to: 'in-progress', actorName: 'Ada Lovelace' });
    expect(of('audit-note')[0]!.body).toBe('Called her <script>x</script>');
    const confirmation = of('mail').find((m) => m.kind === 'audit-confirmation')!;
    expect(confirmation.sentAt).toBeInstanceOf(Date);
    // Only mail to her: the admin's notification went to the owner.
    expect(of('mail').every((m) => m.kind !== 'audit-notification')).toBe(true);
    expect(of('chat-message').map((m) => [m.author, m.body])).toEqual([
      ['assistant', 'Hi! How can I help?'],
      ['visitor', 'Hello <b>there</b>'],
    ]);
    expect(types.indexOf('chat-message')).toBeLessThan(types.indexOf('chat-started'));
    expect(of('page-time').map((p) => p.pagePath)).toEqual(['/free-audit', '/services', '/services']);
    // The status change comes after the request: newer entries first.
    expect(types.indexOf('audit-status')).toBeLessThan(entries.findIndex((e) => e.type === 'lead' && e.kind === 'audit-request'));

    const person = await findPerson('mia@example.com');
    expect(person!.member?.id).toBe(memberId);
    expect(await findPerson('nobody@example.com')).toBeUndefined();
  });

  it('reads a limited page per source and pages back with a cursor, never skipping or repeating an entry', async () => {
    const { userId: memberId } = await h.signUpVerified({ email: 'busy@example.com' });
    const base = Date.UTC(2026, 0, 1);
    // 250 page-time saves, several sharing a millisecond, and 30 mails interleaved.
    const rows = Array.from({ length: 250 }, (_, i) => ({ id: `pt-${String(i).padStart(3, '0')}`, userId: memberId, pagePath: `/p/${i}`, durationMs: 2000, at: new Date(base + Math.floor(i / 3) * 1000), sessionId: 's' }));
    await h.handle.db.insert(pageTimes).values(rows);
    await h.handle.db.insert(mailQueue).values(Array.from({ length: 30 }, (_, i) => ({ id: `m-${i}`, kind: 'test', to: 'Busy@Example.com', subject: `Mail ${i}`, text: '', createdAt: new Date(base + i * 7000) })));

    const seen: string[] = [];
    let before: Date | undefined;
    let pages = 0;
    do {
      const page = await personTimeline('busy@example.com', { before, limit: 40 });
      expect(page.entries.length).toBeLessThanOrEqual(40);
      seen.push(...page.entries.map((e) => e.id));
      before = page.before;
      pages += 1;
    } while (before && pages < 50);
    expect(pages).toBeGreaterThanOrEqual(7);
    expect(new Set(seen).size).toBe(seen.length);
    // Every save, every mail and the sign-up event.
    expect(seen.filter((id) => id.startsWith('page:'))).toHaveLength(250);
    expect(seen.filter((id) => id.startsWith('mail:m-'))).toHaveLength(30);
    expect(seen.filter((id) => id.startsWith('lead:'))).toHaveLength(1);
  });

  // How fast is measured in `npm run bench` (row (k), 100,000 rows), not here: a timing assert fails on a busy machine.
  it('pages through a member with 20,000 page-time rows: the newest 100, and where the next page starts', async () => {
    const { userId: memberId } = await h.signUpVerified({ email: 'heavy@example.com' });
    const base = Date.UTC(2025, 0, 1);
    for (let chunk = 0; chunk < 20; chunk += 1) {
      await h.handle.db.insert(pageTimes).values(
        Array.from({ length: 1000 }, (_, i) => ({ id: `h-${chunk}-${i}`, userId: memberId, pagePath: '/pricing', durationMs: 5000, at: new Date(base + (chunk * 1000 + i) * 60_000), sessionId: `s${chunk}` })),
      );
    }
    const page = await personTimeline('heavy@example.com');
    expect(page.entries).toHaveLength(100);
    expect(page.before).toBeInstanceOf(Date);
  });
});
