/**
 * How much each write route and Action may send, and who reads it (docs/decisions/020). The middleware asks
 * here only after it has decided who may call (origin, session, role), so a stranger's body is never read
 * by a route that would refuse them, and the large allowances (an image upload, a content file) are only
 * ever read for a verified admin.
 *
 * - `limit`: the route's real limit, in bytes. A body that declares more is refused before a byte is read;
 *   one that streams in larger (chunked) is refused as it passes the limit.
 * - `reader: 'route'`: the route reads (and parses) its own body, within the same limit, after its own
 *   cheap refusals: the middleware never buffers or parses it (a content file is parsed once; an upload is
 *   never parsed as a generic form).
 * - `reader: 'middleware'`: Astro or a library reads the body (Actions, better-auth, the form-post pages,
 *   small JSON routes); the middleware checks it first within the limit (JSON that parses, forms within
 *   the form caps, no unstorable text), so what runs next never meets a body it would choke on.
 *
 * Url-encoded forms are capped hard whatever the route allows (no form of this site needs more than tens of
 * KB), and so is the number of fields of any form: parsing cost grows with both.
 */
import { VISIT_BEACON_MAX_BYTES, VISITS_API_PATH } from '../../shared/analytics';
import { CONTENT_IMPORT_PATH, MAX_CONTENT_FILE_BYTES } from '../../shared/content-transfer';
import { BOOKING_WEBHOOK_MAX_BYTES } from '../../shared/booking-webhooks';
import { FORM_POST_PAGES } from '../../shared/form-pages';
import { LEAD_EVENT_MAX_BYTES } from '../../shared/lead-events';
import { MEDIA_API_PATH } from '../../shared/media-library';
import { PAGE_TIME_MAX_BYTES } from '../../shared/page-time';
import { MAX_AUTH_BODY_BYTES } from '../auth/constants';

const KB = 1024;
const MB = 1024 * KB;

export interface BodyPolicy {
  limit: number;
  reader: 'route' | 'middleware';
}

/** The most a url-encoded body may be, on any route. */
export const MAX_URLENCODED_BYTES = 64 * KB;
/** The most fields any form (url-encoded or multipart) may have, on any route. */
export const MAX_FORM_FIELDS = 200;

/** A write to a route nobody declared: small (new routes must say what they take, see the test). */
export const UNDECLARED_BODY_BYTES = 16 * KB;

/** An image of up to 10 MB (src/shared/media-library.ts) and the multipart form around it, with room to
 * spare, so a file just over the limit still reaches the route and hears the limit in plain words. */
export const MEDIA_UPLOAD_BODY_BYTES = 12 * MB;
/** A media item's alt text (JSON). */
export const MEDIA_ITEM_BODY_BYTES = 16 * KB;

/** Actions: an admin's article (rich text) is the largest; a member's Actions carry a few fields. */
export const ADMIN_ACTION_BODY_BYTES = 1 * MB;
export const MEMBER_ACTION_BODY_BYTES = 16 * KB;

/**
 * Every route that takes a body, by exact path or `prefix/*` (after normalizePath: lower case, no trailing
 * slash). The media API's collection takes the upload; its items (`/api/admin/media/{id}`) a small JSON.
 */
const ROUTE_POLICIES: ReadonlyArray<{ path: string; policy: BodyPolicy }> = [
  { path: MEDIA_API_PATH, policy: { limit: MEDIA_UPLOAD_BODY_BYTES, reader: 'route' } },
  { path: `${MEDIA_API_PATH}/*`, policy: { limit: MEDIA_ITEM_BODY_BYTES, reader: 'route' } },
  // A content file carries its images in base64 (src/shared/content-transfer.ts).
  { path: CONTENT_IMPORT_PATH, policy: { limit: MAX_CONTENT_FILE_BYTES, reader: 'route' } },
  // Beacons: a visit (~300 bytes), a page-time record (~200 bytes), a book-a-call click.
  { path: VISITS_API_PATH, policy: { limit: VISIT_BEACON_MAX_BYTES, reader: 'route' } },
  { path: '/api/page-views', policy: { limit: PAGE_TIME_MAX_BYTES, reader: 'route' } },
  { path: '/api/lead-events', policy: { limit: LEAD_EVENT_MAX_BYTES, reader: 'route' } },
  // The scheduler's booking webhooks: read raw by the route, whose signature check needs the exact bytes.
  { path: '/api/webhooks/booking', policy: { limit: BOOKING_WEBHOOK_MAX_BYTES, reader: 'route' } },
  // The free-audit form (a 2,000-character message at most) and the chat (1,000 characters a message).
  { path: '/api/audit-requests', policy: { limit: 32 * KB, reader: 'middleware' } },
  { path: '/api/chat/*', policy: { limit: 16 * KB, reader: 'middleware' } },
  // better-auth's endpoints (sign-in, sign-up, reset…): a few fields each, read and checked by our handler
  // in front of better-auth (src/server/auth/handler.ts).
  { path: '/api/auth/*', policy: { limit: MAX_AUTH_BODY_BYTES, reader: 'route' } },
  // Pages whose forms post to themselves (sign-in, sign-up, reset, the free audit without script).
  ...[...FORM_POST_PAGES].map((path) => ({ path, policy: { limit: MAX_URLENCODED_BYTES, reader: 'middleware' as const } })),
];

const matches = (pattern: string, path: string) =>
  pattern.endsWith('/*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;

/** The declared policy of a route path, or undefined when nobody declared one. */
export function declaredRoutePolicy(path: string): BodyPolicy | undefined {
  return ROUTE_POLICIES.find((r) => matches(r.path, path))?.policy;
}

/** An Action's policy: every Action is checked by the middleware before Astro parses it. */
export function actionBodyPolicy(actionName: string): BodyPolicy {
  return { limit: /^admin\./i.test(actionName) ? ADMIN_ACTION_BODY_BYTES : MEMBER_ACTION_BODY_BYTES, reader: 'middleware' };
}

/**
 * The policy for a request: the Action's when an Action will run (`/_actions/name`, or `?_action=name` on a
 * page), else the route's, else the small default.
 */
export function bodyPolicyFor(path: string, actionName?: string | undefined): BodyPolicy {
  if (actionName !== undefined) return actionBodyPolicy(actionName);
  return declaredRoutePolicy(path) ?? { limit: UNDECLARED_BODY_BYTES, reader: 'middleware' };
}

/** The largest body any route accepts: the adapter's limit, and server.mjs's early refusal. */
export const LARGEST_BODY_BYTES = Math.max(ADMIN_ACTION_BODY_BYTES, ...ROUTE_POLICIES.map((r) => r.policy.limit));
