/**
 * Leads in one place (PRODUCT.md): every lead event with where the person came from. Audit requests and
 * chat leads are recorded by their own modules in their own transactions; this module records the
 * book-a-call clicks browsers report and the sign-ups, and counts all of them for the admin overview.
 */
import { logger } from '../../logger';
import { DEFAULT_TIME_ZONE } from '../../../shared/dates';
import { consumeRateLimit } from '../rate-limit/service';
import { publicPageOrUndefined } from '../site-routes/service';
import {
  dayTable,
  LEAD_KINDS,
  leadPeriodRange,
  zeroCounts,
  attributionOf,
  type KindCounts,
  type LeadEventBody,
  type LeadPeriod,
  type LeadPeriodRange,
} from '../../../shared/lead-events';
import * as repo from './repository';

/**
 * Book-a-call clicks per client address: a person clicks a few times, a script a thousand. Refused clicks
 * lose nothing a person would miss (the booking page still opens).
 */
export const BOOK_CALL_RATE_LIMIT = { max: 20, windowSeconds: 600 } as const;

export interface Member {
  id: string;
  email: string;
  name: string;
}

export type RecordResult = { kind: 'recorded' } | { kind: 'rate-limited'; retryAfterSeconds: number };

/**
 * A book-a-call click. The signed-in member comes from the session (never from the body); `refId` holds
 * the page the link was on, `sourcePage` the visit's landing page (that page when unknown).
 */
export async function recordBookCall(body: LeadEventBody, ctx: { clientIp: string | undefined; member: Member | undefined }, ex: repo.Executor): Promise<RecordResult> {
  const limit = await consumeRateLimit(`lead-events:${ctx.clientIp ?? 'unknown'}`, BOOK_CALL_RATE_LIMIT);
  if (!limit.ok) return { kind: 'rate-limited', retryAfterSeconds: limit.retryAfterSeconds };
  const attribution = body.attribution ?? {};
  // Only a page of the site is kept as where the link was; an invented path leaves it empty.
  const page = (await publicPageOrUndefined(body.page, ex)) ?? '';
  await repo.insertLeadEvent(ex, {
    kind: 'book-call',
    email: ctx.member?.email ?? '',
    name: ctx.member?.name ?? '',
    userId: ctx.member?.id ?? null,
    refId: page,
    attribution: { ...attribution, sourcePage: attribution.sourcePage ?? page },
  });
  return { kind: 'recorded' };
}

/**
 * A new account made through the sign-up form (better-auth's user-create hook, after the user row is
 * committed). The attribution is whatever the form sent, cleaned; a failure is logged and never undoes the
 * sign-up (the person has an account either way).
 */
export async function recordSignUp(user: Member, rawAttribution: unknown, ex: repo.Executor): Promise<void> {
  try {
    await repo.insertLeadEvent(ex, { kind: 'sign-up', email: user.email, name: user.name, userId: user.id, refId: user.id, attribution: attributionOf(rawAttribution) });
  } catch (err) {
    logger.error({ err, userId: user.id }, 'sign-up lead event not recorded');
  }
}

// ---------------------------------------------------------------------------------------------------------
// The admin overview.

export const TOP_SOURCES = 10;

export interface LeadOverview {
  range: LeadPeriodRange;
  totals: { current: KindCounts; previous: KindCounts; all: { current: number; previous: number } };
  days: ReturnType<typeof dayTable>;
  sources: Awaited<ReturnType<typeof repo.topSources>>;
}

/** The overview's lead numbers for the `days` days up to today in `timeZone` (the site's, decision 032); the team's own events left out. */
export async function leadOverview(days: LeadPeriod, now: Date = new Date(), timeZone: string = DEFAULT_TIME_ZONE): Promise<LeadOverview> {
  const range = leadPeriodRange(days, now, timeZone);
  const [{ byKind, byDay }, sources] = await Promise.all([repo.countByKindAndDay(range, timeZone), repo.topSources(range, TOP_SOURCES)]);
  const current = zeroCounts();
  const previous = zeroCounts();
  for (const row of byKind) {
    if (!(LEAD_KINDS as readonly string[]).includes(row.kind)) continue;
    current[row.kind as keyof KindCounts] = row.current;
    previous[row.kind as keyof KindCounts] = row.previous;
  }
  const sum = (c: KindCounts) => LEAD_KINDS.reduce((s, k) => s + c[k], 0);
  return { range, totals: { current, previous, all: { current: sum(current), previous: sum(previous) } }, days: dayTable(range, byDay), sources };
}
