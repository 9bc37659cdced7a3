/**
 * Chat replies reach people who left (issue 35, src/server/modules/chat/reply-mail.ts): a team reply the
 * visitor's widget was not given within a minute goes to the email they left, several replies in one mail,
 * the team's words only, with a link that opens the conversation in another browser; never to an
 * unsubscribed address; a widget that showed the reply (its history, a poll, the stream) means no mail. The
 * launcher's unread count comes from the same mark.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POST as postResume } from '../../src/pages/api/chat/resume';
import { GET as getUnread } from '../../src/pages/api/chat/unread';
import { chatConversations, jobs, mailQueue } from '../../src/server/db/schema';
import { runDueJobsOf } from '../../src/server/jobs/queue';
import { replyToConversation } from '../../src/server/modules/chat/admin';
import { visitorKeyOf, type ChatIdentity } from '../../src/server/modules/chat/identity';
import { CHAT_REPLY_MAIL_JOB, CHAT_REPLY_MAIL_KIND, replyMailDelayMs, sendReplyMail } from '../../src/server/modules/chat/reply-mail';
import { chatSession, pollConversation, saveChatContact, sendVisitorMessage } from '../../src/server/modules/chat/service';
import { saveQuietHours } from '../../src/server/modules/lead-sequences/service';
import { unsubscribe, unsubscribeTokenOf, unsubscribeUrlFor } from '../../src/server/modules/lead-sequences/unsubscribe';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';
import { quietHoursAwayFrom } from '../support/quiet-hours';

const SITE = 'http://localhost:4321';
let h: AuthHarness;
let admin: string;
beforeEach(async () => {
  process.env.AUTH_SECRET ??= 'test-secret-that-is-long-enough-for-hs256-signing';
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' }));
  // A reply mail waits out the quiet hours; these tests are about the minute it gathers replies, at any hour.
  await saveQuietHours(admin, quietHoursAwayFrom(new Date()));
});
afterEach(() => h.close());

const visitor = (): ChatIdentity & { raw: string } => {
  const raw = randomBytes(16).toString('hex');
  return { raw, visitorKey: visitorKeyOf(raw), userId: null };
};
const request = (identity: ChatIdentity) => ({ identity, clientIp: randomIp() });
/** A visitor who asked something and left their email: the conversation's id. */
async function visitorWhoLeft(identity = visitor(), email = 'ada@example.com'): Promise<string> {
  await sendVisitorMessage({ body: 'Your account is locked - verify at https://evil.example/login' }, request(identity));
  const contact = await saveChatContact({ name: 'Ada <b>Lovelace</b>', email, message: 'Call me at https://evil.example' }, request(identity));
  return contact.conversation.id;
}
const replyMails = () => h.handle.db.select().from(mailQueue).where(eq(mailQueue.kind, CHAT_REPLY_MAIL_KIND));
const replyJobs = (conversationId: string) => h.handle.db.select().from(jobs).where(and(eq(jobs.kind, CHAT_REPLY_MAIL_JOB), eq(jobs.payload, { conversationId })));
const runJobs = (at: Date) =>
  runDueJobsOf(CHAT_REPLY_MAIL_JOB, { maxAttempts: 3, retryDelayMs: () => 1000, leaseMs: 60_000, run: async (p: Record<string, unknown>, _j: unknown, now: Date) => void (await sendReplyMail(p.conversationId as string, now)) }, { now: () => at });
const later = (ms: number) => new Date(Date.now() + ms);
function ctx(path: string, init: RequestInit & { visitorId?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.visitorId) headers.set('X-Chat-Visitor', init.visitorId);
  if (init.body) headers.set('Content-Type', 'application/json');
  const req = new Request(`${SITE}${path}`, { ...init, headers });
  return { request: req, url: new URL(req.url), clientAddress: randomIp(), locals: {} } as never;
}

describe('a reply the visitor was not there for', () => {
  it('is mailed a minute after the first reply, several in one mail, in the team’s words only, with the link back', async () => {
    const id = await visitorWhoLeft();
    await replyToConversation(admin, id, 'Hi Ada, Olivia here.');
    await replyToConversation(admin, id, 'Happy to help:\n<b>two</b> options.');
    const [job, ...more] = await replyJobs(id);
    expect(more).toHaveLength(0);
    expect(job!.runAt.getTime() - Date.now()).toBeGreaterThan(replyMailDelayMs() - 5_000);
    // Not before its minute.
    await runJobs(later(10_000));
    expect(await replyMails()).toHaveLength(0);
    await runJobs(later(replyMailDelayMs() + 1_000));
    const [mail, ...others] = await replyMails();
    expect(others).toHaveLength(0);
    expect(mail).toMatchObject({ to: 'ada@example.com', subject: 'Olivia from Autoflow Agency replied to your chat', replyTo: '"Autoflow Agency" <hello@autoflow.agency>' });
    expect(mail!.text).toContain('> Hi Ada, Olivia here.\n\n> Happy to help:\n> <b>two</b> options.');
    expect(mail!.html).toContain('&lt;b&gt;two&lt;/b&gt;');
    // Nothing the visitor typed: a phisher's words and links never go out in the site's name.
    for (const part of [mail!.subject, mail!.text, mail!.html]) expect(part).not.toMatch(/evil\.example|locked|Lovelace/);
    const link = /Continue the conversation: (\S+)/.exec(mail!.text)![1]!;
    expect(link).toMatch(new RegExp(`^${SITE}/\\?chat=${id}\\.[\\w-]{43}$`));
    expect(mail!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.text).toMatch(/To get no more chat replies by email, unsubscribe: http\S+\/unsubscribe\/[\w-]{43}$/);

    // The next reply starts a mail of its own, with only itself.
    await replyToConversation(admin, id, 'Are you still there?');
    await runJobs(later(replyMailDelayMs() + 2_000));
    const mails = await replyMails();
    expect(mails).toHaveLength(2);
    expect(mails.find((m) => m.id !== mail!.id)!.text).toMatch(/> Are you still there\?\n/);
    expect(mails.find((m) => m.id !== mail!.id)!.text).not.toContain('Olivia here');
  });

  it('is not mailed when the widget showed it (history, poll), nor to a visitor without an email, nor once unsubscribed', async () => {
    const ada = visitor();
    const id = await visitorWhoLeft(ada);
    await replyToConversation(admin, id, 'Seen live.');
    // The panel opened within the minute: its history holds the reply.
    await chatSession(ada);
    await runJobs(later(replyMailDelayMs() + 1_000));
    expect(await replyMails()).toHaveLength(0);
    // A poll of the open widget counts too.
    const [row] = await h.handle.db.select().from(chatConversations).where(eq(chatConversations.id, id));
    await replyToConversation(admin, id, 'Polled.');
    const state = (await chatSession(visitor())).conversation; // another browser: nothing of Ada's
    expect(state).toBeNull();
    const { conversation } = await pollConversation(id, (await chatSession(ada)).conversation!.streamToken, row!.visitorSeenSeq);
    expect(conversation.id).toBe(id);
    await runJobs(later(replyMailDelayMs() + 2_000));
    expect(await replyMails()).toHaveLength(0);

    // No email left: nothing queued.
    const ben = visitor();
    const { conversation: benConversation } = await sendVisitorMessage({ body: 'hello?' }, request(ben));
    await replyToConversation(admin, benConversation.id, 'Hi Ben');
    expect(await replyJobs(benConversation.id)).toHaveLength(0);

    // Unsubscribed: the reply waits in the chat.
    const cyId = await visitorWhoLeft(visitor(), 'cy@example.com');
    await h.handle.db.transaction((tx) => unsubscribeUrlFor(tx, 'cy@example.com'));
    expect(await unsubscribe(unsubscribeTokenOf('cy@example.com'), 'page')).toMatchObject({ status: 'unsubscribed' });
    await replyToConversation(admin, cyId, 'Hi Cy');
    await runJobs(later(replyMailDelayMs() + 1_000));
    expect(await replyMails()).toHaveLength(0);
  });
});

describe('the mail’s link and the unread mark', () => {
  it('opens the conversation in another browser, which then counts its unread replies; a changed link is refused', async () => {
    const id = await visitorWhoLeft();
    await replyToConversation(admin, id, 'Hi Ada, Olivia here.');
    await runJobs(later(replyMailDelayMs() + 1_000));
    const token = decodeURIComponent(/\?chat=(\S+)/.exec((await replyMails())[0]!.text)![1]!);

    const phone = visitor();
    const unread = async (who = phone) => ((await (await getUnread(ctx('/api/chat/unread', { visitorId: who.raw }))).json()) as { unread: number }).unread;
    expect(await unread()).toBe(0);
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const refused = await postResume(ctx('/api/chat/resume', { method: 'POST', visitorId: phone.raw, body: JSON.stringify({ token: tampered }) }));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('This chat link is not valid. Open it again from the email, or start a new chat.');
    expect((await postResume(ctx('/api/chat/resume', { method: 'POST', visitorId: phone.raw, body: '[]' }))).status).toBe(400);

    const resumed = await postResume(ctx('/api/chat/resume', { method: 'POST', visitorId: phone.raw, body: JSON.stringify({ token }) }));
    expect(resumed.status).toBe(200);
    expect(((await resumed.json()) as { conversation: { id: string } }).conversation.id).toBe(id);
    // The reply was mailed, not shown: it is unread here until the panel opens.
    expect(await unread()).toBe(1);
    const session = await chatSession(phone);
    expect(session.conversation?.id).toBe(id);
    expect(session.messages.map((m) => m.body)).toContain('Hi Ada, Olivia here.');
    expect(await unread()).toBe(0);
    await replyToConversation(admin, id, 'One more thing.');
    expect(await unread()).toBe(1);
  });
});
