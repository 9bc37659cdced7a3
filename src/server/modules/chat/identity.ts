/**
 * Who is chatting (docs/decisions/013): a visitor is the random id their browser keeps in local storage,
 * stored only as its SHA-256; a member is their session's user. A conversation's stream token is an HMAC
 * of its id with the auth secret, so an EventSource (which cannot send headers) opens that one stream
 * without the visitor id ever appearing in a URL.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { CHAT_VISITOR_ID } from '../../../shared/chat';
import { resolveAuthSecret } from '../../auth/secret';
import { config } from '../../config';

export interface ChatIdentity {
  /** SHA-256 (hex) of the visitor id, when the browser sent one. */
  visitorKey: string | null;
  /** The signed-in member (from the session cookie, never from the request body). */
  userId: string | null;
}

export const isVisitorId = (value: string) => CHAT_VISITOR_ID.test(value);

export const visitorKeyOf = (visitorId: string) => createHash('sha256').update(visitorId, 'utf8').digest('hex');

/** The advisory-lock key of an identity: a member by account, else the visitor. */
export const ownerKeyOf = (identity: ChatIdentity) => (identity.userId ? `user:${identity.userId}` : `visitor:${identity.visitorKey ?? ''}`);

let secret: string | undefined;
const streamSecret = () => (secret ??= resolveAuthSecret(config()));

/** Base64url HMAC-SHA-256 of the conversation id (with a purpose prefix: the secret also signs sessions). */
export function streamTokenFor(conversationId: string): string {
  return createHmac('sha256', streamSecret()).update(`chat-stream:${conversationId}`).digest('base64url');
}

const sameText = (a: string, b: string) => {
  const expected = Buffer.from(a);
  const given = Buffer.from(b);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/** Constant-time check of a token from a URL. */
export const isStreamTokenValid = (conversationId: string, token: string): boolean => sameText(streamTokenFor(conversationId), token);

/**
 * The key of the link a reply mail carries ("Continue the conversation"): the conversation's id and an HMAC
 * of it for this purpose, so it opens that conversation in whichever browser the mail is read in, and no other.
 */
export const resumeTokenFor = (conversationId: string) => `${conversationId}.${createHmac('sha256', streamSecret()).update(`chat-resume:${conversationId}`).digest('base64url')}`;

/** The conversation a reply mail's link names, or undefined for a changed or malformed one. */
export function conversationOfResumeToken(token: string): string | undefined {
  const match = /^([0-9a-f-]{36})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return match && sameText(resumeTokenFor(match[1]!), token) ? match[1] : undefined;
}
