/**
 * Chat replies reach people who left (issue 35). The team's reply is shown live in an open widget; a
 * visitor who left their email and was not there gets it by mail instead. A reply queues one job per
 * conversation (its id carries the conversation's last emailed reply, so replies that follow join it) that
 * runs a minute after the first reply, outside the quiet hours: every team reply since the last mail that
 * the widget did not show by then goes out in one mail, with a link that reopens the conversation in the
 * widget, from whichever browser the mail is read in. Never to an unsubscribed address or a team member.
 *
 * The mail goes to an address nobody confirmed (anyone can type a stranger's): it carries the team's words
 * only, never what the visitor typed, in the subject or the body.
 */
import { and, eq, gt } from 'drizzle-orm';
import { config } from '../../config';
import { db } from '../../db';
import { chatConversations, chatMessages, users } from '../../db/schema';
import { defineJobKind, doublingDelay, enqueueJob } from '../../jobs/queue';
import { logger } from '../../logger';
import { enqueueMail } from '../../mail/queue';
import { escapeHtml } from '../../mail/templates';
import { CHAT_RESUME_PARAM } from '../../../shared/chat';
import { normalizeEmail } from '../../../shared/lead-people';
import { textToHtml } from '../leads/mail';
import { prospectReplyTo } from '../leads/reply-to';
import { isAdminEmail, unsubscribedAtOf } from '../lead-sequences/repository';
import { outsideQuietHours, timingNow, type Timing } from '../lead-sequences/schedule';
import { unsubscribeFooter, unsubscribeHeaders, unsubscribeUrlFor } from '../lead-sequences/unsubscribe';
import { getSiteContent } from '../site/service';
import { resumeTokenFor } from './identity';
import * as repo from './repository';

export const CHAT_REPLY_MAIL_JOB = 'chat-reply-mail';
/** The mail queue's kind of a reply mail (the person's timeline labels it). */
export const CHAT_REPLY_MAIL_KIND = 'chat-reply';
/** How long replies gather before one mail goes (CHAT_REPLY_MAIL_DELAY_SECONDS): a person typing two or three messages sends one mail. */
export const replyMailDelayMs = () => config().CHAT_REPLY_MAIL_DELAY_SECONDS * 1000;

const log = logger.child({ module: 'chat-reply-mail' });

/**
 * Queues the mail of a reply just stored, in the reply's transaction (the conversation is locked, so its
 * `emailedSeq` is current). Nothing without a contact email; a job already waiting takes this reply too.
 */
export async function queueReplyMail(tx: repo.Executor, row: repo.ConversationRow, timing: Timing): Promise<void> {
  if (!row.contactEmail) return;
  const runAt = outsideQuietHours(new Date(timing.now.getTime() + replyMailDelayMs()), timing.quiet, timing.timeZone);
  await enqueueJob(tx, { kind: CHAT_REPLY_MAIL_JOB, id: `${CHAT_REPLY_MAIL_JOB}:${row.id}:${row.emailedSeq}`, payload: { conversationId: row.id }, runAt, ifAbsent: true });
}

/** The link that reopens the conversation in the widget. */
export const resumeUrlFor = (conversationId: string) => {
  const url = new URL('/', config().SITE_URL);
  url.searchParams.set(CHAT_RESUME_PARAM, resumeTokenFor(conversationId));
  return url.toString();
};

export interface ReplyMailContent {
  siteName: string;
  /** The first name of the team member who wrote the (last) reply, '' when unknown. */
  agentName: string;
  replies: readonly string[];
  resumeUrl: string;
  unsubscribeUrl: string;
}

const quote = (text: string) => text.split('\n').map((line) => `> ${line}`).join('\n');

/** The mail: the team's replies quoted as theirs, the link back to the chat, the unsubscribe footer. */
export function replyMail({ siteName, agentName, replies, resumeUrl, unsubscribeUrl }: ReplyMailContent) {
  const who = agentName ? `${agentName} from ${siteName}` : siteName;
  const subject = `${who} replied to your chat`;
  const intro = `You asked a question in the chat on ${siteName}. ${who} replied:`;
  const footer = unsubscribeFooter(siteName, 'you left this address in our chat', 'chat replies by email', unsubscribeUrl);
  const text = ['Hello,', '', intro, '', replies.map(quote).join('\n\n'), '', `Continue the conversation: ${resumeUrl}`].join('\n') + footer;
  const html = [
    `<p>Hello,</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    ...replies.map((r) => `<blockquote>${textToHtml(r)}</blockquote>`),
    `<p><a href="${escapeHtml(resumeUrl)}">Continue the conversation</a></p>`,
    textToHtml(footer.trimStart()),
  ].join('\n');
  return { subject, text, html };
}

export type ReplyMailOutcome = 'sent' | 'seen' | 'nothing' | 'no-contact' | 'unsubscribed' | 'team' | 'deferred';

/**
 * The job's work: in one transaction with the conversation locked, the replies since the last mail; those
 * the widget showed are marked as handled, the rest (if any) mailed. `now`: the worker's clock.
 */
export async function sendReplyMail(conversationId: string, now = new Date()): Promise<ReplyMailOutcome> {
  // Read before the transaction (PGlite has one connection, which the transaction holds).
  const [{ siteName }, timing] = await Promise.all([getSiteContent(), timingNow(now)]);
  const outcome = await db().transaction(async (tx): Promise<ReplyMailOutcome> => {
    const row = await repo.lockConversation(conversationId, tx);
    if (!row) return 'nothing';
    const email = normalizeEmail(row.contactEmail);
    if (!email) return 'no-contact';
    const replies = await tx
      .select({ seq: chatMessages.seq, body: chatMessages.body, firstName: users.firstName, name: users.name })
      .from(chatMessages)
      .leftJoin(users, eq(users.id, chatMessages.adminId))
      .where(and(eq(chatMessages.conversationId, row.id), eq(chatMessages.author, 'admin'), gt(chatMessages.seq, row.emailedSeq)))
      .orderBy(chatMessages.seq);
    const last = replies.at(-1);
    if (!last) return 'nothing';
    // The quiet hours changed since the job was queued: the mail waits for their end (the same job again).
    const outside = outsideQuietHours(now, timing.quiet, timing.timeZone);
    if (outside.getTime() > now.getTime()) {
      await enqueueJob(tx, { kind: CHAT_REPLY_MAIL_JOB, id: `${CHAT_REPLY_MAIL_JOB}:${row.id}:${row.emailedSeq}:${outside.getTime()}`, payload: { conversationId: row.id }, runAt: outside, ifAbsent: true });
      return 'deferred';
    }
    await tx.update(chatConversations).set({ emailedSeq: last.seq }).where(eq(chatConversations.id, row.id));
    const unseen = replies.filter((r) => r.seq > row.visitorSeenSeq);
    if (unseen.length === 0) return 'seen';
    if (await unsubscribedAtOf(email, tx)) return 'unsubscribed';
    if (await isAdminEmail(email, tx)) return 'team';
    const unsubscribeUrl = await unsubscribeUrlFor(tx, email);
    const writer = unseen.at(-1)!;
    const content = replyMail({
      siteName,
      agentName: (writer.firstName || writer.name || '').trim().split(/\s+/)[0] ?? '',
      replies: unseen.map((r) => r.body),
      resumeUrl: resumeUrlFor(row.id),
      unsubscribeUrl,
    });
    await enqueueMail(tx, { kind: CHAT_REPLY_MAIL_KIND, to: email, ...content, replyTo: await prospectReplyTo(tx, email), headers: unsubscribeHeaders(unsubscribeUrl) });
    return 'sent';
  });
  log.info({ conversationId, outcome }, 'chat reply mail');
  return outcome;
}

defineJobKind<{ conversationId: string }>(CHAT_REPLY_MAIL_JOB, {
  maxAttempts: 10,
  retryDelayMs: doublingDelay(30_000, 60 * 60_000),
  leaseMs: 5 * 60_000,
  run: async ({ conversationId }, _job, now) => void (await sendReplyMail(conversationId, now)),
});
