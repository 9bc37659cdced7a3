/**
 * The overview's Today and the admin pages' live counts (issue 35, src/server/modules/today): which request
 * waits for a report (read from the reports, never the status), which chat waits for the team, which opened
 * report has no reply since — each rule with what must NOT be listed — the counts of the title and the
 * badges, and the admin live feed's `signals` and `alert` events (a lead announced from where it is stored,
 * an admin's own chat never alerting that admin).
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../src/server/modules/chat/assistant', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/modules/chat/assistant')>();
  // A predictable assistant: it always answers (its wording belongs to its own tests).
  return { ...real, assistantReply: async () => ({ body: 'Here is what our site says.', sources: [], confident: true }) };
});

import { auditReports, bookings, mailQueue } from '../../src/server/db/schema';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { openReport, sendAuditReport } from '../../src/server/modules/audit-report/service';
import { markConversationRead, replyToConversation, setConversationStatus } from '../../src/server/modules/chat/admin';
import { subscribeToInbox, type InboxEvent } from '../../src/server/modules/chat/hub';
import { visitorKeyOf, type ChatIdentity } from '../../src/server/modules/chat/identity';
import { acceptVisitorMessage, saveChatContact, sendVisitorMessage } from '../../src/server/modules/chat/service';
import { inboxStream } from '../../src/server/modules/chat/streams';
import { sendLeadMail } from '../../src/server/modules/leads/mail';
import { setLeadStage, setReplied } from '../../src/server/modules/leads/work';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { adminSignals, todayOverview } from '../../src/server/modules/today/service';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
let secondAdmin: string;

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ userId: secondAdmin } = await h.signUpVerified({ email: 'partner@example.com' }));
  await h.handle.db.execute(`update users set role = 'admin' where id = '${secondAdmin}'`);
});
afterEach(() => h.close());

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function request(name: string, email = `${name.toLowerCase()}@example.com`): Promise<string> {
  const fields = { fullName: name, email, businessName: `${name} Clinic`, website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  if (result.kind !== 'accepted' || !result.id) throw new Error('not accepted');
  return result.id;
}

async function finishedCheck(requestId: string): Promise<number> {
  const findings = scoreFindings([{ id: 'contact-form', category: 'leads', title: 'Form', status: 'fail', evidence: [], why: 'w', fix: 'f' }]);
  await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId, url: 'https://clinic.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
  return findings.overall!;
}

/** Sends the report and opens it as the requester's browser would; returns when it was opened. */
async function sendAndOpen(requestId: string): Promise<Date> {
  await finishedCheck(requestId);
  await sendAuditReport(admin, requestId, { summary: 'Fix the form.', notes: {}, hidden: [] });
  const [report] = await h.handle.db.select().from(auditReports).where(eq(auditReports.requestId, requestId));
  const [mail] = await h.handle.db.select().from(mailQueue).where(and(eq(mailQueue.kind, 'audit-report'), eq(mailQueue.to, report!.sentTo)));
  const token = /\/audit-report\/([A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
  // The opening is a moment after the send: a reply must come after it to count.
  const at = new Date(Date.now() + 1000);
  expect((await openReport(token, { method: 'GET', userAgent: BROWSER }, at)).kind).toBe('ok');
  return at;
}

const visitor = (): ChatIdentity => ({ visitorKey: visitorKeyOf(randomBytes(16).toString('hex')), userId: null });
const accept = (identity: ChatIdentity, body: string) => acceptVisitorMessage({ body }, { identity, clientIp: randomIp() });

describe('requests waiting for a report', () => {
  it('are the requests with no report sent whose person is no client or not a fit, oldest first, with their website check’s score', async () => {
    const first = await request('Ada');
    const second = await request('Bo');
    const score = await finishedCheck(second);
    const sent = await request('Cy');
    await finishedCheck(sent);
    await sendAuditReport(admin, sent, { summary: 'S', notes: {}, hidden: [] });
    await request('Di');
    await setLeadStage(admin, 'di@example.com', 'not-a-fit');
    // Moved on by hand without a report: still waiting (the reports decide, and the stage only ends the wait for good).
    const movedOn = await request('Ed');
    await setLeadStage(admin, 'ed@example.com', 'contacted');

    const { requests } = await todayOverview();
    expect(requests.rows.map((r) => r.id)).toEqual([first, second, movedOn]);
    expect(requests.total).toBe(3);
    expect(requests.rows[0]).toMatchObject({ fullName: 'Ada', checkStatus: null, score: null });
    expect(requests.rows[1]).toMatchObject({ fullName: 'Bo', checkStatus: 'done', score });
    expect((await adminSignals()).waitingRequests).toBe(3);

    // A short list: the total still counts them all.
    const short = await todayOverview(2);
    expect(short.requests.rows).toHaveLength(2);
    expect(short.requests.total).toBe(3);
  });
});

describe('chats waiting for the team', () => {
  it('are open chats with unread visitor messages or where the visitor wrote last, newest first', async () => {
    // Unread: the visitor asked and the assistant answered, nobody on the team has read it.
    const unread = await sendVisitorMessage({ body: 'Do you build booking forms?' }, { identity: visitor(), clientIp: randomIp() });
    // Read, answered by the assistant: nothing waits.
    const answered = await sendVisitorMessage({ body: 'What is the free audit?' }, { identity: visitor(), clientIp: randomIp() });
    await markConversationRead(admin, answered.conversation.id);
    // Taken over by an admin, read, and the visitor wrote last: the visitor waits for a person.
    const takenOver = visitor();
    const first = await accept(takenOver, 'Hello?');
    await replyToConversation(admin, first.conversationId, 'Hi, Olivia here.');
    await accept(takenOver, 'Can we talk on Monday?');
    await markConversationRead(admin, first.conversationId);
    // Replied to by an admin: nothing waits.
    const replied = visitor();
    const r = await accept(replied, 'Prices?');
    await replyToConversation(admin, r.conversationId, 'From 500 a month.');
    // Handled, though unread: the team closed it.
    const handled = await sendVisitorMessage({ body: 'Thanks, bye' }, { identity: visitor(), clientIp: randomIp() });
    await setConversationStatus(admin, handled.conversation.id, 'handled');

    const { chats } = await todayOverview();
    expect(chats.rows.map((c) => c.id)).toEqual([first.conversationId, unread.conversation.id]);
    expect(chats.total).toBe(2);
    expect(chats.rows[0]).toMatchObject({ unread: 0, preview: 'Can we talk on Monday?' });
    expect(chats.rows[1]!.unread).toBe(1);
    // The title counts chats with unread messages: the unread one and the handled one.
    expect(await adminSignals()).toMatchObject({ unreadChats: 2, openChats: 4, allChats: 5 });
  });
});

describe('reports opened without a reply', () => {
  it('lists a report opened with nothing from the team since, the latest opening first', async () => {
    const ada = await request('Ada');
    const bo = await request('Bo');
    await sendAndOpen(ada);
    await sendAndOpen(bo);
    // Sent but never opened: not listed.
    const cy = await request('Cy');
    await finishedCheck(cy);
    await sendAuditReport(admin, cy, { summary: 'S', notes: {}, hidden: [] });

    const { reports } = await todayOverview();
    expect(reports.rows.map((r) => r.email)).toEqual(['bo@example.com', 'ada@example.com']);
    expect(reports.rows[0]).toMatchObject({ requestId: bo, fullName: 'Bo', businessName: 'Bo Clinic', openings: 1 });
  });

  it('leaves out whoever the team answered after the opening: a mail, a chat reply, a booking, a stage, "replied", a closed request', async () => {
    const names = ['Mail', 'Chat', 'Booked', 'Stage', 'Replied', 'Closed', 'Waiting', 'Early'];
    const ids = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await request(n)] as const)));
    const openedAt: Record<string, Date> = {};
    for (const n of names) openedAt[n] = await sendAndOpen(ids[n]!);
    const later = (n: string) => new Date(openedAt[n]!.getTime() + 60_000);

    await sendLeadMail(admin, 'mail@example.com', { subject: 'Your report', body: 'Shall we talk?' });
    await h.handle.db.update(mailQueue).set({ createdAt: later('Mail') }).where(eq(mailQueue.kind, 'lead-mail'));

    const chat = visitor();
    await saveChatContact({ name: 'Chat', email: 'chat@example.com', message: 'Saw the report' }, { identity: chat, clientIp: randomIp() });
    const { conversationId } = await accept(chat, 'Hello');
    await replyToConversation(admin, conversationId, 'Hi!');
    await h.handle.db.execute(`update chat_messages set created_at = '${later('Chat').toISOString()}' where author = 'admin'`);

    await h.handle.db.insert(bookings).values({ id: crypto.randomUUID(), provider: 'webhook', externalId: 'b1', email: 'booked@example.com', status: 'booked', createdAt: later('Booked') });
    await setLeadStage(admin, 'stage@example.com', 'contacted');
    await h.handle.db.execute(`update activity_log set at = '${later('Stage').toISOString()}' where action = 'stage' and entity_id = 'stage@example.com'`);
    await setReplied(admin, 'replied@example.com', true);
    await h.handle.db.execute(`update lead_people set replied_at = '${later('Replied').toISOString()}' where email = 'replied@example.com'`);
    await setLeadStage(admin, 'closed@example.com', 'not-a-fit');
    // A mail before the opening is no reply to it.
    await sendLeadMail(admin, 'early@example.com', { subject: 'Hello', body: 'Before you read it' });
    await h.handle.db.execute(`update mail_queue set created_at = '${new Date(openedAt.Early!.getTime() - 60_000).toISOString()}' where kind = 'lead-mail' and "to" = 'early@example.com'`);

    const { reports } = await todayOverview(10);
    expect(reports.rows.map((r) => r.email).sort()).toEqual(['early@example.com', 'waiting@example.com']);
    expect(reports.total).toBe(2);
  });

  it('counts an automatic sequence mail as no reply, and takes the latest opening of a person’s reports', async () => {
    const id = await request('Ada');
    const opened = await sendAndOpen(id);
    await h.handle.db.insert(mailQueue).values({ id: crypto.randomUUID(), kind: 'lead-sequence', to: 'ada@example.com', subject: 'Following up', text: 't', createdAt: new Date(opened.getTime() + 60_000) });
    const { reports } = await todayOverview();
    expect(reports.rows.map((r) => r.email)).toEqual(['ada@example.com']);
    expect(reports.rows[0]!.openedAt).toBe(opened.toISOString());
  });
});

describe('the admin live feed', () => {
  /** Collects what this process's admin pages are sent, until `until` says enough. */
  function collect(until: (events: InboxEvent[]) => boolean): { events: InboxEvent[]; done: Promise<InboxEvent[]> } {
    const events: InboxEvent[] = [];
    let stop = () => {};
    const done = new Promise<InboxEvent[]>((resolve) => {
      const unsubscribe = subscribeToInbox((e) => {
        events.push(e);
        if (until(events)) {
          unsubscribe();
          resolve(events);
        }
      });
      stop = unsubscribe;
    });
    void stop;
    return { events, done };
  }

  it('alerts a new audit request and a new chat lead, and sends the new counts', async () => {
    const request = collect((es) => es.some((e) => e.event === 'alert') && es.some((e) => e.event === 'signals' && e.data.waitingRequests === 1));
    const id = await (async () => {
      const fields = { fullName: 'Ada <b>Lovelace</b>', email: 'ada@example.com', businessName: 'Analytical', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
      const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
      return result.kind === 'accepted' ? result.id : undefined;
    })();
    const events = await request.done;
    expect(events.find((e) => e.event === 'alert')!.data).toEqual({
      id: `audit-request:${id}`,
      kind: 'audit-request',
      title: 'New audit request',
      body: 'Ada <b>Lovelace</b> (Analytical)',
      href: `/admin/audit/${id}`,
      by: null,
    });

    const lead = collect((es) => es.some((e) => e.event === 'alert' && e.data.kind === 'chat-lead'));
    await saveChatContact({ name: 'Bo', email: 'bo@example.com', message: 'Call me' }, { identity: visitor(), clientIp: randomIp() });
    const alert = (await lead.done).find((e) => e.event === 'alert' && e.data.kind === 'chat-lead')!;
    expect(alert.data).toMatchObject({ title: 'New chat lead', body: 'Bo (bo@example.com): Call me' });
  });

  it('sends the counts again after the team works a lead (a stage, a follow-up), so the overview’s Today reloads', async () => {
    await request('Ada');
    const afterStage = collect((es) => es.some((e) => e.event === 'signals' && e.data.waitingRequests === 0));
    await setLeadStage(admin, 'ada@example.com', 'not-a-fit');
    expect((await afterStage.done).some((e) => e.event === 'signals')).toBe(true);
    const afterFollowUp = collect((es) => es.some((e) => e.event === 'signals'));
    await setLeadStage(admin, 'ada@example.com', 'contacted');
    expect((await afterFollowUp.done).find((e) => e.event === 'signals')!.data.waitingRequests).toBe(1);
  });

  it('alerts each visitor message (not the assistant’s or an admin’s) with the unread count after it', async () => {
    const seen = collect((es) => es.some((e) => e.event === 'signals' && e.data.unreadChats === 1) && es.some((e) => e.event === 'message' && e.data.author === 'assistant'));
    const sent = await sendVisitorMessage({ body: 'Do you do SEO?' }, { identity: visitor(), clientIp: randomIp() });
    const events = await seen.done;
    const alerts = events.filter((e) => e.event === 'alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.data).toMatchObject({ kind: 'chat-message', conversationId: sent.conversation.id, body: expect.stringContaining('Do you do SEO?') });

    const quiet = collect((es) => es.some((e) => e.event === 'signals' && e.data.unreadChats === 0));
    await replyToConversation(admin, sent.conversation.id, 'We do.');
    expect((await quiet.done).filter((e) => e.event === 'alert')).toEqual([]);
  });

  it('never sends an admin the alert of their own chat; another admin gets it, and every stream opens with the counts', async () => {
    const abort = new AbortController();
    const own = await inboxStream({ userId: admin, sessionId: null }, abort.signal);
    const other = await inboxStream({ userId: secondAdmin, sessionId: null }, abort.signal);
    const read = async (res: Response, until: RegExp) => {
      const reader = res.body!.getReader();
      let text = '';
      while (!until.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      reader.releaseLock();
      return text;
    };
    expect(await read(own, /event: signals/)).toMatch(/"unreadChats":0/);
    await read(other, /event: signals/);
    // The owner tries the chat while signed in.
    await acceptVisitorMessage({ body: 'Testing my own chat' }, { identity: { visitorKey: null, userId: admin }, clientIp: randomIp() });
    const otherSaw = await read(other, /"unreadChats":1/);
    const ownSaw = await read(own, /"unreadChats":1/);
    expect(otherSaw).toMatch(/event: alert\ndata: \{"id":"chat-message:/);
    expect(otherSaw).not.toContain('"by"');
    expect(ownSaw).not.toContain('event: alert');
    abort.abort();
  });
});
